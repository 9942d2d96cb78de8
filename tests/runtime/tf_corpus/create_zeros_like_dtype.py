import tensorflow as tf

x = tf.constant([[1, 2]], dtype=tf.int64)
print(tf.zeros_like(x))
print(tf.ones_like(x, dtype=tf.float32))
print(tf.zeros_like([1.0, 2.0]))
print(tf.ones_like(tf.Variable([3.0])))
