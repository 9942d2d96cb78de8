import tensorflow as tf

x = tf.constant([0.0, 0.5, 1.0])
print(tf.sin(x))
print(tf.cos(x))
print(tf.exp(x))
print(tf.math.log(tf.constant([1.0, 2.0, 0.0])))
print(tf.math.atan2(tf.constant([1.0]), tf.constant([-1.0])))
print(tf.math.asin(tf.constant([0.5])))
