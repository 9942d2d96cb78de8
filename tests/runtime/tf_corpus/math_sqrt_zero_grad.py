import tensorflow as tf

x = tf.constant([0.0, 4.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.sqrt(x)
print(tape.gradient(y, x))
