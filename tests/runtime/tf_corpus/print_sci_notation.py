import tensorflow as tf

print(tf.constant([1e-8, 1.0, 1e8]))
print(tf.constant(1e-8))
print(repr(tf.constant(1e-8)))
print(tf.constant([123456789.0, 0.5]))
print(tf.constant(3.0e38))
print(tf.constant([1e-5, 2e-5], tf.float64))
