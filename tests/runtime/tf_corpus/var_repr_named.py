import tensorflow as tf

v = tf.Variable([1.0, 2.0], name="w")
print(repr(v))
print(v)
print(v.name, v.shape, v.dtype, v.trainable)
