import tensorflow as tf

print(tf.constant([0.001, 1000.0, 123.456]))
print(tf.constant([1e-3, 1e3], tf.float64))
print(tf.constant([[1e-10, 1.0], [2.0, 3.0]]))
print(tf.constant([1.5, float("nan"), 2.25]))
print(repr(tf.constant([1e20, -1e-20])))
print(tf.constant(123456.789))
print(tf.constant(1e16, tf.float64))
