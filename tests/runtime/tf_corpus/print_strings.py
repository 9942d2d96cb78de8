import tensorflow as tf

s = tf.constant("hi")
print(s)
print(repr(s))
a = tf.constant(["a", "bc"])
print(a)
print(repr(a))
print(s.dtype, s.shape)
print(s.numpy())
