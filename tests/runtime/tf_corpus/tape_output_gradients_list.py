import tensorflow as tf

x = tf.constant(2.0)
with tf.GradientTape() as tape:
    tape.watch(x)
    y1 = x * x
    y2 = x * 3.0
g = tape.gradient([y1, y2], x, output_gradients=[tf.constant(2.0), tf.constant(10.0)])
print(g)
