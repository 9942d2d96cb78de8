import tensorflow as tf

a = tf.Variable(3.0)
with tf.GradientTape() as outer:
    with tf.GradientTape(watch_accessed_variables=False) as inner:
        inner.watch(a)
        y = a * a * a
    g = inner.gradient(y, a)
print(g)
print(outer.gradient(g, a))
