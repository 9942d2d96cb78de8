import tensorflow as tf

v = tf.Variable(1.0)
x = tf.constant(2.0)
with tf.GradientTape(watch_accessed_variables=False) as tape:
    tape.watch(x)
    y = v * x
print(tape.gradient(y, [v, x]))
print(tape.watched_variables())
