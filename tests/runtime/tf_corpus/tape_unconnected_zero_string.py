import tensorflow as tf

x = tf.Variable(1.0)
y = tf.Variable(2.0)
with tf.GradientTape() as tape:
    z = x * 3.0
print(tape.gradient(z, y, unconnected_gradients="zero"))
print(tf.UnconnectedGradients.NONE.value, tf.UnconnectedGradients.ZERO.value)
