import tensorflow as tf

x = tf.constant([1, 2, 3], dtype=tf.int64)
print(x)
print(repr(x))
print(tf.constant(2 ** 40))
print(repr(tf.constant(-5, tf.int64)))
