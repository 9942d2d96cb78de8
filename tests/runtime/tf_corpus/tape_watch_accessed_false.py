import tensorflow as tf

v = tf.Variable(3.0)
with tf.GradientTape(watch_accessed_variables=False) as tape:
    y = v * v
print(tape.gradient(y, v))
print(tape.watched_variables())
