import tensorflow as tf

x = tf.constant([3.0, 1.0, 2.0, 1.0])
print(tf.sort(x))
print(tf.sort(x, direction="DESCENDING"))
print(tf.argsort(x))
print(tf.argsort(x, direction="DESCENDING"))
m = tf.constant([[3, 1, 2], [0, 5, 5]])
print(tf.sort(m, axis=0))
print(tf.argsort(m, axis=1, direction="DESCENDING"))
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.reduce_sum(tf.sort(x) * tf.constant([1.0, 10.0, 100.0, 1000.0]))
print(tape.gradient(y, x))
