import tensorflow as tf

print(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
print(repr(tf.constant([[1, 2], [3, 4]])))
print(tf.reshape(tf.range(8), [2, 2, 2]))
print(repr(tf.reshape(tf.range(8.0), [2, 2, 2])))
