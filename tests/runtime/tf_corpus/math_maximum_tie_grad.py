import tensorflow as tf

a = tf.constant([1.0, 2.0, 3.0])
b = tf.constant([1.0, 1.0, 5.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch([a, b])
    mx = tf.maximum(a, b)
    mn = tf.minimum(a, b)
print(tape.gradient(mx, [a, b]))
print(tape.gradient(mn, [a, b]))
