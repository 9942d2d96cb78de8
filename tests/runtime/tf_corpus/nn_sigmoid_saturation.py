import tensorflow as tf

x = tf.constant([-100.0, -20.0, 0.0, 20.0, 100.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.sigmoid(x)
print(y)
print(tape.gradient(y, x))
