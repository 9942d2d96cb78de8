import tensorflow as tf

x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.concat([x, tf.transpose(x) * 2.0], axis=1)
    z = tf.reduce_sum(tf.reshape(y, [-1]) * tf.range(8.0))
print(tape.gradient(z, x))
