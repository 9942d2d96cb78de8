import tensorflow as tf

x = tf.Variable([-2.0, 0.0, 2.0])
with tf.GradientTape(persistent=True) as tape:
    a = x ** 2.0
    b = tf.pow(x, 3.0)
    c = tf.pow(2.0, x)
print(a, b, c)
for y in (a, b, c):
    print(tape.gradient(y, x))
print(tf.pow(tf.constant([2, 3]), 2), tf.constant(-8.0) ** (1.0 / 3.0))
