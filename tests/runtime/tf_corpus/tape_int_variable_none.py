import tensorflow as tf

v = tf.Variable(7)
with tf.GradientTape() as tape:
    y = v * 2
print(v.trainable)
print(len(tape.watched_variables()))
print(tape.gradient(y, v))
