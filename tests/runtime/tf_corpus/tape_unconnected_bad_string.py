import tensorflow as tf

x = tf.Variable(1.0)
y = tf.Variable(2.0)
with tf.GradientTape() as tape:
    z = x * 3.0
try:
    tape.gradient(z, y, unconnected_gradients="zeros")
except Exception as e:
    print(type(e).__name__)
