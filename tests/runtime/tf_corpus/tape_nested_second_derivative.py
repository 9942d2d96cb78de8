import tensorflow as tf

x = tf.Variable(1.5)
with tf.GradientTape() as outer:
    with tf.GradientTape() as inner:
        y = x * x * x
    dy = inner.gradient(y, x)
d2y = outer.gradient(dy, x)
print(dy)
print(d2y)
