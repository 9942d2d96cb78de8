import tensorflow as tf

params = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
with tf.GradientTape() as tape:
    rows = tf.gather(params, [2, 0, 2])
    y = tf.reduce_sum(rows * 2.0)
g = tape.gradient(y, params)
print(type(g).__name__)
print(g.indices)
print(g.values)
print(tf.convert_to_tensor(g))
