import tensorflow as tf

x = tf.constant([3.0, 4.0])
print(tf.nn.l2_loss(x))
print(tf.nn.l2_normalize(x))
print(tf.math.l2_normalize(tf.zeros([2])))
