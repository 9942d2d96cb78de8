import tensorflow as tf

x = tf.constant([1.0, 2.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = x * x
try:
    g = tape.gradient(y, x, output_gradients=tf.constant([1, 1]))
    print(g)
except Exception as e:
    print(type(e).__name__)
