import tensorflow as tf

a = tf.constant([1.0, 0.0, 3.0])
b = tf.constant([0.0, 0.0, 2.0])
print(tf.math.divide_no_nan(a, b))
print(a / b)
print(tf.math.xlogy(tf.constant([0.0, 1.0]), tf.constant([0.0, 2.0])))
print(tf.math.multiply_no_nan(tf.constant([float("inf"), 2.0]), tf.constant([0.0, 3.0])))
