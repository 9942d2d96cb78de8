import tensorflow as tf

b = tf.constant([True, False, True])
print(b)
print(repr(b))
print(tf.constant(True))
print(repr(tf.constant(False)))
print(tf.constant([[True], [False]]))
