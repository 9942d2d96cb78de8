import tensorflow as tf

x = tf.Variable([1.0, 2.0, 3.0, 4.0])
with tf.GradientTape(persistent=True) as tape:
    a = tf.cumsum(x, exclusive=True)
    b = tf.cumsum(x, reverse=True)
    c = tf.cumsum(x, exclusive=True, reverse=True)
    d = tf.math.cumprod(x, exclusive=True)
print(a, b, c, d)
for y in (a, b, c, d):
    print(tape.gradient(y, x))
