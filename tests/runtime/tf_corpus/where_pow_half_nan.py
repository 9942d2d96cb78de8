import tensorflow as tf

x = tf.constant([0.0, 4.0, -4.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.where(x > 0.0, x ** 0.5, tf.zeros_like(x))
print(y)
print(tape.gradient(y, x))
