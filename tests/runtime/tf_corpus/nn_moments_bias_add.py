import tensorflow as tf

x = tf.constant([[1.0, 2.0], [3.0, 6.0]])
mean, var = tf.nn.moments(x, axes=[0])
print(mean, var)
print(tf.nn.bias_add(x, tf.constant([10.0, 20.0])))
