import tensorflow as tf

print(tf.range(1.0, -1.0, -0.5))
print(tf.range(3, dtype=tf.float32))
print(tf.range(tf.constant(4, tf.int64)))
print(tf.range(0.1, 0.4, 0.1))
