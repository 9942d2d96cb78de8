import tensorflow as tf

x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
u = tf.constant([[5.0], [6.0]])
with tf.GradientTape(persistent=True) as tape:
    tape.watch([x, u])
    y = tf.concat([x * x, tf.reduce_sum(x, axis=1, keepdims=True)], axis=1)
print(tape.batch_jacobian(y, x))
print(tape.batch_jacobian(y, u))
print(tape.batch_jacobian(y, u, unconnected_gradients=tf.UnconnectedGradients.ZERO))
print(tape.jacobian(y, u, unconnected_gradients="zero").shape)
