import tensorflow as tf

x = tf.constant(0.1)
print(x)
print(repr(x))
print(repr(tf.constant([0.1, 0.2])))
print(repr(tf.constant(0.1, tf.float64)))
print(f"{x}")
print(f"{tf.constant(2.0)}")
