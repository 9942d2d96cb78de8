import tensorflow as tf

print(tf.range(5, 0, -2), tf.range(0.0, 1.0, 0.25), tf.range(3, dtype=tf.float64))
print(tf.linspace(0.0, 1.0, 5), tf.linspace(tf.constant(0, tf.float64), 1.0, 3))
s = tf.Variable(1.0)
with tf.GradientTape() as tape:
    y = tf.reduce_sum(tf.linspace(s, 3.0, 3))
print(tape.gradient(y, s))
print(tf.zeros([2, 0]), tf.ones((0,), tf.int32), tf.fill([2], 7))
