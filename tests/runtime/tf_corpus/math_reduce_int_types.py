import tensorflow as tf

x = tf.constant([[1, 2], [3, 4]])
print(tf.reduce_sum(x), tf.reduce_prod(x), tf.reduce_max(x), tf.reduce_min(x, axis=0))
print(tf.reduce_mean(tf.constant([1, 2, 4])))
print(tf.reduce_sum(tf.constant([True, True, False])) if False else tf.math.count_nonzero(tf.constant([True, True, False])))
print(tf.cumsum(x, axis=1))
