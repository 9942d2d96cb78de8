import tensorflow as tf

v = tf.Variable([0.0, 0.0, 0.0])
with tf.GradientTape(persistent=True) as tape:
    n2 = tf.norm(v)
    n1 = tf.norm(v, ord=1)
    ninf = tf.norm(v, ord=float("inf"))
    e = tf.sqrt(tf.reduce_sum(v * v))
print(n2, n1, ninf)
print(tape.gradient(n2, v))
print(tape.gradient(n1, v))
print(tape.gradient(ninf, v))
print(tape.gradient(e, v))
print(tf.linalg.l2_normalize(v))
