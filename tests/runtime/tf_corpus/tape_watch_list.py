import tensorflow as tf

a = tf.constant(1.0)
b = tf.constant(2.0)
with tf.GradientTape() as tape:
    tape.watch([a, b])
    y = a * b + b
print(tape.gradient(y, [a, b]))
print(len(tape.watched_variables()))
