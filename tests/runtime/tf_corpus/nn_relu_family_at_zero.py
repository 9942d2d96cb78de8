import tensorflow as tf

x = tf.constant([-1.0, 0.0, 1.0, 6.0, 7.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    r = tf.nn.relu(x)
    r6 = tf.nn.relu6(x)
    lr = tf.nn.leaky_relu(x, alpha=0.1)
print(r, r6, lr)
print(tape.gradient(r, x))
print(tape.gradient(r6, x))
print(tape.gradient(lr, x))
