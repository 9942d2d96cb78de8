import tensorflow as tf

x = tf.constant([-1.0, 0.0, 0.5, 1.0, 2.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.clip_by_value(x, 0.0, 1.0)
print(y)
print(tape.gradient(y, x))
