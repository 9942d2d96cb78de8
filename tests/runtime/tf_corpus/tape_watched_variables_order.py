import tensorflow as tf

a = tf.Variable(1.0, name="a")
b = tf.Variable(2.0, name="b")
c = tf.Variable(3.0, name="c")
with tf.GradientTape() as tape:
    y = c * b * a
print([v.name for v in tape.watched_variables()])
print(type(tape.watched_variables()).__name__)
