import tensorflow as tf

i = tf.constant([-2147483648, -3, 0, 5], tf.int32)
print(tf.abs(i), tf.sign(i), -i)
f = tf.constant([-0.0, 0.0, -1.5, float("nan")])
print(tf.abs(f), tf.sign(f))
print(tf.math.reciprocal(tf.constant([0.0, -0.0, 4.0])))
print(tf.math.divide_no_nan(tf.constant([1.0, 0.0]), tf.constant([0.0, 0.0])))
