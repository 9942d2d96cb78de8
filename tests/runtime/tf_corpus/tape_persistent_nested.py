import tensorflow as tf

x = tf.Variable(2.0)
with tf.GradientTape(persistent=True) as outer:
    with tf.GradientTape(persistent=True) as inner:
        y = x ** 4
    g1 = inner.gradient(y, x)
    g1b = inner.gradient(y, x)
g2 = outer.gradient(g1, x)
print(g1, g1b, g2)
print(outer.gradient(y, x))
