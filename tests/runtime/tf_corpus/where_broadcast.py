import tensorflow as tf

c = tf.constant([True, False, True])
print(tf.where(c, tf.constant([[1.0], [2.0]]), 0.0))
print(tf.where(True, tf.constant([1, 2]), tf.constant([3, 4])))
