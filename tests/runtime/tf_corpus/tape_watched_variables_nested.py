import tensorflow as tf

a = tf.Variable(1.0, name="a")
b = tf.Variable(2.0, name="b")
c = tf.Variable(3.0, name="c", trainable=False)
with tf.GradientTape() as outer:
    with tf.GradientTape() as inner:
        y = b * a
    z = c * y + a
print([v.name for v in inner.watched_variables()])
print([v.name for v in outer.watched_variables()])
with tf.GradientTape(watch_accessed_variables=False) as t:
    t.watch(c)
    t.watch(a)
    w = a * b * c
print([v.name for v in t.watched_variables()])
print(t.gradient(w, [a, b, c]))
