import tensorflow as tf

a = tf.constant([1.0, 2.0])
print(tf.add_n([a, a, a]))
print(tf.math.squared_difference(a, tf.constant([3.0, 0.0])))
print(tf.math.log1p(tf.constant([0.0, 1e-10])))
print(tf.math.expm1(tf.constant([0.0, 1e-10])))
print(tf.math.reciprocal(tf.constant([2.0, 4.0])))
print(tf.math.rsqrt(tf.constant([4.0])))
