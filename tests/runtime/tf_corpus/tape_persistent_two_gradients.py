import tensorflow as tf

x = tf.constant([1.0, 2.0, 3.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    y = x * x
    z = y * y
print(tape.gradient(z, x))
print(tape.gradient(y, x))
print(tape.gradient(z, y))
del tape
