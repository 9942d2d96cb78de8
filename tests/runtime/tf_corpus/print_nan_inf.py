import tensorflow as tf

x = tf.constant([float("nan"), float("inf"), -float("inf"), -0.0, 1.0])
print(x)
print(repr(x))
print(tf.constant(float("nan")))
print(repr(tf.constant(-0.0)))
