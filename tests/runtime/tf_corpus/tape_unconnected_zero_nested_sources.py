import tensorflow as tf

a = tf.Variable([1.0, 2.0])
b = tf.Variable([[1.0], [2.0]])
with tf.GradientTape() as tape:
    y = tf.reduce_sum(a)
print(tape.gradient(y, {"a": a, "rest": [b]}, unconnected_gradients="zero"))
