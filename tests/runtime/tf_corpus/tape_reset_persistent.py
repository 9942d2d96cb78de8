import tensorflow as tf

x = tf.constant(2.0)
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    y = x * x
    tape.reset()
    tape.watch(x)
    z = 5.0 * x
print(tape.gradient(z, x))
print(tape.gradient(y, x))
