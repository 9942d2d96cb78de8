import tensorflow as tf

x = tf.Variable([-2.0, -1.0, 0.0, 1.0, 2.0])
lo = tf.Variable(-1.0)
hi = tf.Variable(1.0)
with tf.GradientTape() as tape:
    y = tf.clip_by_value(x, lo, hi)
print(y)
print(tape.gradient(y, [x, lo, hi]))
print(tf.clip_by_value(tf.constant([1, 5, 9]), 2, 6))
