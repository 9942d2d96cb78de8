import tensorflow as tf

x = tf.constant([1.0, 2.0, 3.0, 4.0])
print(tf.cumsum(x))
print(tf.math.cumsum(x, exclusive=True))
print(tf.math.cumsum(x, reverse=True))
print(tf.math.cumprod(x))
print(tf.math.cumprod(x, exclusive=True))
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.reduce_sum(tf.math.cumprod(x))
print(tape.gradient(y, x))
