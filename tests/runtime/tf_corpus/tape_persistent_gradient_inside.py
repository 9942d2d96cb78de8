import tensorflow as tf

x = tf.constant(3.0)
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    y = x * x * x
    g = tape.gradient(y, x)
    h = tape.gradient(g, x)
print(g)
print(h)
