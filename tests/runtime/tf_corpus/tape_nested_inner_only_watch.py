import tensorflow as tf

x = tf.constant(2.0)
with tf.GradientTape() as outer:
    with tf.GradientTape() as inner:
        inner.watch(x)
        y = x * x
    g = inner.gradient(y, x)
print(g)
print(outer.gradient(g, x))
