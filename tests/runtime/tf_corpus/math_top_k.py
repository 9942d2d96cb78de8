import tensorflow as tf

x = tf.constant([1.0, 3.0, 3.0, 2.0, 5.0])
values, indices = tf.math.top_k(x, k=3)
print(values)
print(indices)
r = tf.nn.top_k(tf.constant([[1, 4, 2], [9, 0, 9]]), k=2)
print(r.values)
print(r.indices)
