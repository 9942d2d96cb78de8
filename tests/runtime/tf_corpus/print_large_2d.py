import tensorflow as tf

x = tf.reshape(tf.range(1500.0), [50, 30])
print(x)
print(repr(x))
