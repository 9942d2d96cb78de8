import tensorflow as tf

v = tf.Variable([[1.0, 2.0], [3.0, 4.0]], name="m")
print(v)
print(repr(tf.Variable([[1, 2]])))
print(tf.Variable(tf.zeros([0])))
