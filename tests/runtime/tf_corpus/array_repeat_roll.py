import tensorflow as tf

x = tf.constant([[1, 2], [3, 4]])
print(tf.repeat(x, 2))
print(tf.repeat(x, [1, 3], axis=0))
print(tf.repeat(x, 2, axis=1))
print(tf.roll(tf.range(5), 2, 0))
print(tf.roll(x, [1, -1], [0, 1]))
v = tf.constant([1.0, 2.0, 3.0])
with tf.GradientTape() as tape:
    tape.watch(v)
    y = tf.reduce_sum(tf.repeat(v, [2, 0, 1]) * tf.constant([1.0, 2.0, 3.0]))
print(tape.gradient(y, v))
