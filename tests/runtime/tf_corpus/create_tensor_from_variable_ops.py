import tensorflow as tf

v = tf.Variable([1.0, 2.0, 3.0])
print(tf.reduce_sum(v) / 3.0)
print(tf.concat([v, v], 0))
print(tf.gather(v, [0, 2]))
print(v[1:].numpy(), v.shape[0])
