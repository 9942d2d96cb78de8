# einsum with a letter repeated in one operand (traces, diagonals): values, gradients, second order
import tensorflow as tf

m = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]])
b = tf.reshape(tf.range(18, dtype=tf.float32), (2, 3, 3))
c = tf.reshape(tf.range(12, dtype=tf.float32) / 4.0, (2, 2, 3))
v = tf.constant([0.5, -1.0, 2.0])
print(tf.einsum("ii->", m))
print(tf.einsum("ii->i", m))
print(tf.einsum("bii->b", b))
print(tf.einsum("...ii->...i", b))
print(tf.einsum("iij->j", c))
print(tf.einsum("ii,i->", m, v))
print(tf.einsum("ij,jj->i", m, m))
for eq, args in [("ii->", (m,)), ("ii->i", (m,)), ("bii->b", (b,)), ("...ii->...i", (b,)),
                 ("iij->j", (c,)), ("ii,i->", (m, v)), ("ij,jj->i", (m, m)), ("bii,i->bi", (b, v))]:
    with tf.GradientTape() as tape:
        tape.watch(args)
        y = tf.einsum(eq, *args)
        weights = tf.reshape(tf.range(1, tf.size(y) + 1), tf.shape(y))
        loss = tf.reduce_sum(y * tf.cast(weights, tf.float32) / 2.0)
    print(eq, tape.gradient(loss, args))
x = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
with tf.GradientTape() as outer:
    with tf.GradientTape() as inner:
        y = tf.einsum("ii->", x * x * x)
    g = inner.gradient(y, x)
print(g)
print(outer.gradient(g, x))
