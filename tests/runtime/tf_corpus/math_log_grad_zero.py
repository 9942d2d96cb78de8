import tensorflow as tf

x = tf.constant([0.0, 1.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.math.log(x)
print(y)
print(tape.gradient(y, x))
