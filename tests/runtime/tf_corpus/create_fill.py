import tensorflow as tf

print(tf.fill([2, 2], 7))
print(tf.fill([3], 1.5))
print(tf.fill([2], True))
print(tf.fill([1, 2], tf.constant(2.0, tf.float64)))
