import tensorflow as tf

v = tf.Variable([1.0, 2.0])
y = v + 1.0
print(type(y).__name__ == "EagerTensor" or type(y).__name__ == "Tensor")
print(y)
print(v * v)
print(tf.reduce_sum(v))
print(-v)
