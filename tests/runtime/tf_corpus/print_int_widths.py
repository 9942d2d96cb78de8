import tensorflow as tf

print(tf.constant([[1, -22], [333, 4]]))
print(tf.constant([2 ** 40, -5], tf.int64))
print(repr(tf.constant([[0, 1], [10, 100]], tf.int16)))
print(tf.constant([[True, False, True]]))
