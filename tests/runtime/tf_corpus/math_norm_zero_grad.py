import tensorflow as tf

x = tf.zeros([3])
with tf.GradientTape() as tape:
    tape.watch(x)
    n = tf.norm(x)
print(n)
print(tape.gradient(n, x))
v = tf.constant([3.0, 4.0])
print(tf.norm(v), tf.norm(v, ord=1), tf.norm(v, ord=float("inf")))
