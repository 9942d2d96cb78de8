import tensorflow as tf

x = tf.Variable([[-float("inf"), 0.0], [-float("inf"), -float("inf")]])
with tf.GradientTape() as tape:
    y = tf.reduce_logsumexp(x, axis=1)
print(y)
print(tape.gradient(y, x))
print(tf.nn.softmax(tf.constant([-float("inf"), 0.0, 0.0])))
print(tf.reduce_logsumexp(tf.constant([1000.0, 1000.0])))
