import tensorflow as tf

x = tf.Variable(3.0)
with tf.GradientTape() as outer:
    with tf.GradientTape() as inner:
        y = x * tf.stop_gradient(x * x) + tf.identity(x) ** 2
    g = inner.gradient(y, x)
print(y, g, outer.gradient(g, x))
