import tensorflow as tf

x = tf.constant([0.1, 1.5, 1000.0], dtype=tf.float16)
print(x)
print(repr(x))
print(repr(tf.constant(0.1, tf.float16)))
print(tf.constant(0.1, tf.float16))
