import tensorflow as tf

x = tf.Variable(2.0)
with tf.GradientTape(persistent=True) as tape:
    y = x ** 3
    dy = tape.gradient(y, x)
d2 = tape.gradient(dy, x)
print(dy, d2)
