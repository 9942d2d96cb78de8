import tensorflow as tf

i = tf.Variable(3)
f = tf.Variable(2.0)
with tf.GradientTape() as tape:
    y = tf.cast(i, tf.float32) * f
g = tape.gradient(y, [i, f], unconnected_gradients=tf.UnconnectedGradients.ZERO)
print(g)
