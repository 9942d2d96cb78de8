import tensorflow as tf

b = tf.constant([[True, False], [True, True]])
print(tf.reduce_any(b), tf.reduce_all(b))
print(tf.reduce_all(b, axis=1))
print(tf.math.count_nonzero(b))
