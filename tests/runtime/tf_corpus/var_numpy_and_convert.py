import tensorflow as tf

v = tf.Variable([[1, 2], [3, 4]])
print(v.numpy())
t = tf.convert_to_tensor(v)
print(t)
print(tf.identity(v))
print(v[0])
print(v[:, 1])
