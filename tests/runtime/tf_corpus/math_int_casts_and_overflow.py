import tensorflow as tf

f = tf.constant([-2.7, -0.5, 0.5, 2.7, 1e10])
print(tf.cast(f, tf.int32)[:4])
print(tf.saturate_cast(f, tf.int8))
print(tf.cast(tf.constant([300, -1]), tf.uint8))
i = tf.constant([2147483647], tf.int32)
print(i + 1)
print(tf.cast(tf.constant([True, False]), tf.float32))
print(tf.cast(tf.constant([0.0, 2.5]), tf.bool))
print(tf.math.floormod(tf.constant([-7, 7]), 3), tf.truncatemod(tf.constant([-7, 7]), 3))
print(tf.constant([-7, 7]) // 2, tf.constant([-7.0, 7.0]) // 2.0)
