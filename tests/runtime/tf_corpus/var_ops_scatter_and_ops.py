import tensorflow as tf

v = tf.Variable([1.0, 2.0, 3.0, 4.0])
v.scatter_update(tf.IndexedSlices(tf.constant([10.0, 30.0]), tf.constant([0, 2])))
print(v.numpy())
v.scatter_add(tf.IndexedSlices(tf.constant([1.0]), tf.constant([3])))
print(v.numpy())
r = v.assign_add([1.0, 1.0, 1.0, 1.0])
print(type(r).__name__, r.numpy())
print(v[1:3], v.shape, v.dtype, v.trainable)
print(v + 1.0, -v, abs(v - 5.0))
print(tf.reduce_sum(v), v.value())
print(v.scatter_sub(tf.IndexedSlices(tf.constant([1.0, 1.0]), tf.constant([3, 3]))).numpy())
print(v.scatter_max(tf.IndexedSlices(tf.constant([100.0, 0.0]), tf.constant([1, 2]))).numpy())
print(v.scatter_nd_update([[1]], [7.0]).numpy(), v.scatter_nd_add([[0], [0]], [1.0, 2.0]).numpy())
try:
    v.scatter_update([1.0])
except TypeError as e:
    print(e)
