import tensorflow as tf

x = tf.constant([[1.0, 2.0], [3.0, 4.0], [0.5, -1.0]])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.stack([x[:, 0] * x[:, 1], tf.sin(x[:, 0])], axis=1)
print(tape.batch_jacobian(y, x))
