import tensorflow as tf

a = tf.Variable(1.0)
b = tf.Variable(1.0, trainable=False)
c = tf.Variable(1)
print(a.trainable, b.trainable, c.trainable)
