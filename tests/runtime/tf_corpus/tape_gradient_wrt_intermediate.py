import tensorflow as tf

x = tf.constant(2.0)
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    y = x * x
    z = y * 3.0 + y
print(tape.gradient(z, y))
print(tape.gradient(z, [x, y]))
