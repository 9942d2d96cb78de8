import tensorflow as tf

v = tf.Variable(2.0, name="twice")
with tf.GradientTape() as tape:
    tape.watch(v)
    tape.watch(v)
    y = v * v
print(tape.gradient(y, v))
print([w.name for w in tape.watched_variables()])
