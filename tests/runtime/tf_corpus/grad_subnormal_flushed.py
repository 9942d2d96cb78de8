import tensorflow as tf

# TF's kernels flush subnormal float results to zero; so do the gradients here.
x = tf.constant([100.0, 90.0, 0.0, -100.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.math.log_sigmoid(x)
print(tape.gradient(y, x))

w = tf.Variable([1.0, 2.0])
tiny = tf.constant([1e-39, 3e-38])
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(w * tiny)
print(tape.gradient(loss, w))

z = tf.Variable(-90.0)
with tf.GradientTape() as tape:
    s = tf.nn.softplus(z)
print(s, tape.gradient(s, z))

d = tf.Variable(300.0, dtype=tf.float64)
with tf.GradientTape() as tape:
    e = tf.exp(-d * 2.5)
print(e, tape.gradient(e, d))
