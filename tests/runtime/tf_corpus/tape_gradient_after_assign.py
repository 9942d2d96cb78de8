import tensorflow as tf

v = tf.Variable(1.0)
with tf.GradientTape() as tape:
    y = v * v
    v.assign(5.0)
    z = y + v
print(tape.gradient(z, v))
print(v.numpy())
