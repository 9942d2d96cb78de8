import tensorflow as tf

x = tf.constant([-1.7, -0.5, 0.5, 1.5, 2.9])
print(tf.cast(x, tf.int32))
print(tf.cast(x, tf.bool))
print(tf.cast(tf.constant([True, False]), tf.float32))
print(tf.cast(tf.constant([1, 2]), tf.float64))
print(tf.cast(tf.constant(1e10), tf.float16))
print(tf.cast(x, tf.float16))
