import tensorflow as tf

x = tf.Variable(1.0)
with tf.GradientTape() as tape:
    y = tf.constant(2.0)
print(tape.gradient(y, x))
