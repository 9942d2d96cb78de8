import tensorflow as tf

x = tf.constant([1.0, 2.0, 3.0]) / 3.0
print(x)
print(repr(x))
print(tf.constant(1.0) / 3.0)
print(repr(tf.constant(1.0) / 3.0))
print(tf.constant(2.0, tf.float64) / 3.0)
print(tf.sqrt(tf.constant(2.0)))
