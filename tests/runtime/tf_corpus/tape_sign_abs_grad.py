import tensorflow as tf

x = tf.constant([-2.0, 0.0, 3.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    s = tf.sign(x)
    a = tf.abs(x)
print(tape.gradient(s, x))
print(tape.gradient(a, x))
