import tensorflow as tf

v = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
with tf.GradientTape() as tape:
    g1 = tf.gather(v, [1])
    g2 = tf.gather(v, [0, 0])
    g3 = tf.gather(v, [2])
    loss = tf.reduce_sum(g3) + 2.0 * tf.reduce_sum(g1) + 3.0 * tf.reduce_sum(g2)
g = tape.gradient(loss, v)
print(type(g).__name__)
print(g.indices, g.values[:, 0])
print(tf.convert_to_tensor(g))
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(tf.gather(v, [1])) + tf.reduce_sum(v * 2.0)
g = tape.gradient(loss, v)
print(type(g).__name__, g)
