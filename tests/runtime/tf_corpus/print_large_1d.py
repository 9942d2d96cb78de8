import tensorflow as tf

x = tf.range(2000)
print(x)
print(repr(x))
y = tf.range(1001.0)
print(y)
print(tf.range(1000))
