import tensorflow as tf

v = tf.Variable(lambda: tf.ones([2, 2]) * 3.0, name="ones3")
print(v)
