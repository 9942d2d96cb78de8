import tensorflow as tf

x = tf.constant([3.0, 1.0, 3.0, 2.0, 1.0])
v, i = tf.math.top_k(x, k=3)
print(v, i)
print(tf.sort(x, direction="DESCENDING"), tf.argsort(x), tf.argsort(x, direction="DESCENDING"))
w = tf.Variable([3.0, 1.0, 3.0, 2.0])
with tf.GradientTape() as tape:
    top = tf.math.top_k(w, k=2).values
    loss = tf.reduce_sum(top * tf.constant([1.0, 10.0]))
print(tape.gradient(loss, w))
