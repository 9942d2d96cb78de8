import tensorflow as tf

v = tf.Variable(10)
v.assign_add(5)
print(v)
v.assign_sub(20)
print(v.numpy())
print(v.dtype)
