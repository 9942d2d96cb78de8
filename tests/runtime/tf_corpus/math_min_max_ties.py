import tensorflow as tf

a = tf.Variable([1.0, 2.0, 3.0])
b = tf.Variable([1.0, 5.0, 3.0])
with tf.GradientTape(persistent=True) as tape:
    mx = tf.maximum(a, b)
    mn = tf.minimum(a, b)
    mx2 = tf.maximum(b, a)
print(tape.gradient(mx, [a, b]))
print(tape.gradient(mn, [a, b]))
print(tape.gradient(mx2, [a, b]))
x = tf.Variable(2.0)
with tf.GradientTape() as tape:
    y = tf.maximum(x, 2.0) + tf.minimum(x, 2.0)
print(tape.gradient(y, x))
