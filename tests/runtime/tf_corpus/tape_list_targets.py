import tensorflow as tf

x = tf.constant([1.0, 2.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    y1 = x * x
    y2 = tf.reduce_sum(x) * 2.0
print(tape.gradient([y1, y2], x))
