import tensorflow as tf

x = tf.constant([1.0, 2.0])
u = tf.constant([3.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch([x, u])
    y = x * 2.0
print(tape.jacobian(y, u))
print(tape.jacobian(y, u, unconnected_gradients="zero"))
