import tensorflow as tf

x = tf.constant([0.1, 0.2], dtype=tf.float64)
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.reduce_sum(tf.exp(x) / 3.0)
g = tape.gradient(y, x)
print(g)
print(repr(g))
