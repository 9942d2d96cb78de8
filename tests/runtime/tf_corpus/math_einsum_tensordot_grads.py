import tensorflow as tf

a = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
b = tf.Variable([[0.5, -1.0], [2.0, 1.0]])
with tf.GradientTape(persistent=True) as tape:
    e = tf.einsum("ij,jk->ik", a, b)
    t = tf.tensordot(a, b, axes=[[0], [1]])
    outer = tf.einsum("i,j->ij", a[0], b[1])
print(e, t, outer)
print(tape.gradient(e, [a, b]))
print(tape.gradient(t, [a, b]))
print(tape.gradient(outer, [a, b]))
