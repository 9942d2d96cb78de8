import tensorflow as tf

x = tf.Variable([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]])
with tf.GradientTape(persistent=True) as tape:
    a, b = tf.split(x, 2, axis=1)
    r0, r1 = tf.unstack(x)
    p, q, s = tf.split(x, [1, 2, 1], axis=1)
    loss = tf.reduce_sum(a * 2.0) + tf.reduce_sum(r1) + tf.reduce_sum(s * s)
print(a, q)
print(tape.gradient(loss, x))
print(tape.gradient(b, x))
print(tape.gradient([r0, r1], x))
