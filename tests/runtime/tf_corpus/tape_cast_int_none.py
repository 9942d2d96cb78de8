import tensorflow as tf

x = tf.Variable(2.7)
with tf.GradientTape(persistent=True) as tape:
    a = tf.cast(x, tf.int32)
    b = tf.cast(a, tf.float32) * x
    c = tf.cast(tf.cast(x, tf.int32), tf.float32)
print(tape.gradient(b, x))
print(tape.gradient(c, x))
