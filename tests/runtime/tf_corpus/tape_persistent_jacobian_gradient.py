import tensorflow as tf

x = tf.Variable([1.0, 2.0])
with tf.GradientTape(persistent=True) as tape:
    y = tf.exp(x)
    s = tf.reduce_sum(y)
print(tape.gradient(s, x))
print(tape.jacobian(y, x))
print(tape.gradient(s, x))
