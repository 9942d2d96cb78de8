import tensorflow as tf

x = tf.constant(2.0)
with tf.GradientTape(persistent=True) as outer:
    outer.watch(x)
    with tf.GradientTape() as inner:
        inner.watch(x)
        y = x * x
        inner.reset()
        inner.watch(x)
        z = x * x * x
    g = inner.gradient(z, x)
print(g)
print(outer.gradient(g, x))
print(outer.gradient(y, x))
