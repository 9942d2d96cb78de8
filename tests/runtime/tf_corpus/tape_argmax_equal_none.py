import tensorflow as tf

x = tf.Variable([1.0, 3.0, 2.0])
with tf.GradientTape(persistent=True) as tape:
    i = tf.argmax(x)
    e = tf.cast(tf.equal(x, 3.0), tf.float32)
print(i)
print(tape.gradient(i, x))
print(tape.gradient(e, x))
