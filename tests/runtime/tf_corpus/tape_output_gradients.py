import tensorflow as tf

x = tf.constant([1.0, 2.0, 3.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = x * x
print(tape.gradient(y, x, output_gradients=tf.constant([1.0, 0.5, -1.0])))
