import tensorflow as tf

w = tf.Variable(2.0, trainable=False)
with tf.GradientTape() as tape:
    y = w * w
print(tape.gradient(y, w))
print(tape.watched_variables())
with tf.GradientTape() as tape:
    tape.watch(w)
    y = w * w
print(tape.gradient(y, w))
