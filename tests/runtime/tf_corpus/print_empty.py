import tensorflow as tf

print(tf.constant([]))
print(repr(tf.constant([])))
print(tf.zeros([2, 0]))
print(repr(tf.zeros([0, 3], tf.int32)))
print(tf.constant([], dtype=tf.int64))
