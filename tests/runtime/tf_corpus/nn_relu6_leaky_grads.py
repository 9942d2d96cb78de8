import tensorflow as tf

x = tf.Variable([-1.0, 0.0, 3.0, 6.0, 7.0])
with tf.GradientTape(persistent=True) as tape:
    r6 = tf.nn.relu6(x)
    lk = tf.nn.leaky_relu(x, alpha=0.1)
    el = tf.nn.elu(x)
print(r6, lk)
print(tape.gradient(r6, x))
print(tape.gradient(lk, x))
print(tape.gradient(el, x))
