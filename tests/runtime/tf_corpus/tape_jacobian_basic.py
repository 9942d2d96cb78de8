import tensorflow as tf

x = tf.constant([1.0, 2.0, 3.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = x * x
    z = tf.stack([y[0] * y[1], y[2]])
print(tape.jacobian(z, x))
