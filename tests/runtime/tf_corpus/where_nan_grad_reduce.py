import tensorflow as tf

x = tf.constant([-1.0, 0.0, 1.0, 4.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    safe = tf.where(x > 0.0, x, tf.ones_like(x))
    y = tf.reduce_sum(tf.where(x > 0.0, tf.sqrt(safe), tf.zeros_like(x)))
    z = tf.reduce_sum(tf.where(x > 0.0, tf.sqrt(x), tf.zeros_like(x)))
print(y, z)
print(tape.gradient(y, x))
print(tape.gradient(z, x))
