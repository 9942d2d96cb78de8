import tensorflow as tf

v = tf.Variable(3)
print(repr(v))
u = tf.Variable([[1.5, 2.5]])
print(u.name)
print(u)
