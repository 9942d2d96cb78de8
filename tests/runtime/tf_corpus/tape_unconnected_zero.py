import tensorflow as tf

x = tf.Variable([1.0, 2.0])
y = tf.Variable([[2.0, 3.0]])
with tf.GradientTape() as tape:
    z = tf.reduce_sum(x * 3.0)
g = tape.gradient(z, [x, y], unconnected_gradients=tf.UnconnectedGradients.ZERO)
print(g)
