import tensorflow as tf

x = tf.constant([-1.0, 0.0, 2.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    r = tf.nn.relu(x)
    m = tf.maximum(x, 0.0)
    a = tf.abs(x)
    s = tf.square(x)
print(tape.gradient(r, x), tape.gradient(m, x))
print(tape.gradient(a, x), tape.gradient(s, x))
