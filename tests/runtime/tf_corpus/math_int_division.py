import tensorflow as tf

a = tf.constant([1, 2, 3])
print(a / 2)
print(tf.divide(a, a))
print((a / a).dtype)
print(tf.constant([1, 2], tf.int64) / 4)
