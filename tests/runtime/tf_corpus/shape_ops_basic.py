import tensorflow as tf

x = tf.reshape(tf.range(6), [2, 3])
print(tf.transpose(x))
print(tf.reshape(x, [-1]))
print(tf.expand_dims(x, 0).shape, tf.squeeze(tf.zeros([1, 3, 1])).shape)
print(tf.concat([x, x], axis=0))
print(tf.stack([x, x], axis=1).shape)
print(tf.unstack(x))
print(tf.split(tf.range(6), 3))
print(tf.tile(tf.constant([1, 2]), [3]))
