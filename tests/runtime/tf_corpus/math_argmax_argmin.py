import tensorflow as tf

x = tf.constant([[1.0, 5.0, 5.0], [7.0, 0.0, 7.0]])
print(tf.argmax(x), tf.argmax(x, axis=1))
print(tf.argmin(x, axis=1, output_type=tf.int32))
print(tf.math.argmax(tf.constant([2, 9, 9])))
