import tensorflow as tf

s = tf.TensorShape([2, None, 3])
print(s)
print(repr(s))
print(tf.TensorShape([]))
print(repr(tf.TensorShape([])))
print(tf.TensorShape([4]))
print(s.as_list(), s.rank)
print(tf.constant([[1.0]]).shape == (1, 1))
