import tensorflow as tf

x = tf.Variable(3.0)
with tf.GradientTape() as tape:
    y = x * x
    tape.reset()
    z = x * x * x
print(tape.gradient(z, x))
