import tensorflow as tf

x = tf.constant([1.0, 2.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    y = tf.sin(x) * 0.0 + x * x
for og in ([1.0, 1.0], [0.0, 2.0], [-1.0, 0.5]):
    print(tape.gradient(y, x, output_gradients=tf.constant(og)))
