import tensorflow as tf

v = tf.Variable([1.0, 2.0])
print(v.assign([3.0, 4.0]))
print(v.assign_add([1.0, 1.0]))
print(v.assign_sub([0.5, 0.5]))
print(v.numpy())
r = v.assign_add([1.0, 0.0], read_value=False)
print(r)
print(v)
