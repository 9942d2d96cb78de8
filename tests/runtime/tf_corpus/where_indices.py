import tensorflow as tf

c = tf.constant([[True, False], [False, True]])
print(tf.where(c))
print(tf.where(tf.constant([1, 0, 2]) > 0))
print(tf.where(c, 1.0, -1.0))
