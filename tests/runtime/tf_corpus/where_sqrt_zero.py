import tensorflow as tf

x = tf.constant([0.0, 4.0, -1.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.where(x > 0.0, tf.sqrt(x), tf.zeros_like(x))
print(y)
print(tape.gradient(y, x))
