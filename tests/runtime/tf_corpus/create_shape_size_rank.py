import tensorflow as tf

x = tf.zeros([2, 3, 4])
print(tf.shape(x))
print(tf.size(x))
print(tf.rank(x))
print(x.shape)
print(repr(x.shape))
print(x.shape.as_list(), x.shape.rank, x.ndim)
print(x.shape[1:])
