import tensorflow as tf

x = tf.constant([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.5, 2.4999998])
print(tf.round(x))
print(tf.math.rint(x))
print(tf.round(tf.constant([1, -3])))
print(tf.round(tf.constant([0.5, 1.5], tf.float64)))
