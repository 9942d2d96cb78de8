import tensorflow as tf

x = tf.constant([[3.0, 4.0], [6.0, 8.0]])
print(tf.norm(x))
print(tf.norm(x, axis=1))
print(tf.norm(x, axis=0, keepdims=True))
print(tf.math.reduce_euclidean_norm(x, axis=1))
