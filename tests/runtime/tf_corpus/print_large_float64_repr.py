import tensorflow as tf

x = tf.range(0.0, 300.0, 0.25, dtype=tf.float64)
print(repr(x))
y = tf.linspace(tf.constant(0.0, tf.float64), 1.0, 1200)
print(y)
