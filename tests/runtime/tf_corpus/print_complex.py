import tensorflow as tf

z = tf.constant([1 + 0.5j, 2 - 1j])
print(z)
print(repr(z))
print(z.dtype)
c = tf.cast(tf.constant([1.0, -2.5]), tf.complex64)
print(c)
print(c.dtype)
