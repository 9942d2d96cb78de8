import tensorflow as tf

w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
x = tf.constant([[1.0, -1.0]])
with tf.GradientTape() as tape:
    y = tf.matmul(x, w)
j = tape.jacobian(y, w)
print(j.shape)
print(j)
