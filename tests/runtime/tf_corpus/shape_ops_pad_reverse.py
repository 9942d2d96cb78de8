import tensorflow as tf

x = tf.constant([[1, 2], [3, 4]])
print(tf.pad(x, [[1, 0], [0, 2]]))
print(tf.reverse(x, [1]))
print(tf.broadcast_to(tf.constant([1.0, 2.0]), [2, 2]))
print(tf.gather(x, [1, 0]))
print(tf.gather(x, [1], axis=1))
print(tf.gather_nd(x, [[0, 1], [1, 0]]))
print(tf.boolean_mask(tf.constant([1, 2, 3]), [True, False, True]))
