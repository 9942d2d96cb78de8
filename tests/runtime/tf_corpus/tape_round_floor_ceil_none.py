import tensorflow as tf

x = tf.Variable([1.5, 2.5, -0.5])
with tf.GradientTape(persistent=True) as tape:
    r = tf.round(x)
    f = tf.floor(x)
    c = tf.math.ceil(x)
print(r, f, c)
print(tape.gradient(r, x), tape.gradient(f, x), tape.gradient(c, x))
