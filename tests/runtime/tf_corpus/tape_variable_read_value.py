import tensorflow as tf

v = tf.Variable([1.0, 2.0])
with tf.GradientTape() as tape:
    r = v.read_value()
    y = tf.reduce_sum(r * r)
print(tape.gradient(y, v))
