import tensorflow as tf

a = tf.Variable(3.0, name="a")
b = tf.Variable(4.0, name="b")
with tf.GradientTape(watch_accessed_variables=False) as tape:
    tape.watch(b)
    y = a * b
print(tape.gradient(y, [a, b]))
print([v.name for v in tape.watched_variables()])
