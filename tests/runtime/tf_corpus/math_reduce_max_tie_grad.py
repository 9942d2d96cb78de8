import tensorflow as tf

x = tf.constant([3.0, 1.0, 3.0, 3.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    m = tf.reduce_max(x)
    n = tf.reduce_min(x)
print(m, tape.gradient(m, x))
print(n, tape.gradient(n, x))
