import tensorflow as tf

x = tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
with tf.GradientTape() as tape:
    y = tf.reduce_sum(x[:, 1:] ** 2)
g = tape.gradient(y, x)
print(isinstance(g, tf.IndexedSlices), tf.is_tensor(g))
print(g)
