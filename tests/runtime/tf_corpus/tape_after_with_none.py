import tensorflow as tf

x = tf.Variable(3.0)
with tf.GradientTape() as tape:
    y = x * 2.0
z = y * x
print(tape.gradient(z, x))
