import tensorflow as tf

x = tf.constant([0.0, 2.0])
y = tf.constant([2.0, 3.0])
with tf.GradientTape() as tape:
    tape.watch([x, y])
    z = tf.pow(x, y)
print(z)
print(tape.gradient(z, [x, y]))
