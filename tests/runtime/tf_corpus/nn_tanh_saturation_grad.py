import tensorflow as tf

x = tf.constant([-50.0, -1.0, 0.0, 1.0, 50.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.tanh(x)
print(y)
print(tape.gradient(y, x))
