import tensorflow as tf

x = tf.constant([1.0, 2.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    z = tf.zeros_like(x)
    o = tf.ones_like(x)
print(tape.gradient(z, x))
print(tape.gradient(o, x))
