import tensorflow as tf

a = tf.constant([1, 2, 3])
print(a > 1)
print(tf.logical_and(a > 1, a < 3))
print(tf.cast(a > 1, tf.int32) * a)
print(tf.math.logical_xor(tf.constant([True, False]), tf.constant([True, True])))
print(~tf.constant([True, False]))
