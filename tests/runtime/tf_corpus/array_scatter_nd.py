import tensorflow as tf

indices = tf.constant([[4], [3], [1], [7], [1]])
updates = tf.constant([9.0, 10.0, 11.0, 12.0, 1.0])
print(tf.scatter_nd(indices, updates, [8]))
t = tf.constant([[1.0, 2.0], [3.0, 4.0]])
print(tf.tensor_scatter_nd_update(t, [[0, 1], [1, 0]], [20.0, 30.0]))
print(tf.tensor_scatter_nd_add(t, [[1, 1]], [100.0]))
with tf.GradientTape(persistent=True) as tape:
    tape.watch([t, updates])
    s = tf.scatter_nd(indices, updates, [8])
    loss = tf.reduce_sum(s * tf.range(8.0))
    u = tf.reduce_sum(tf.tensor_scatter_nd_update(t, [[0, 1]], updates[:1]) * tf.constant([[1.0, 2.0], [3.0, 4.0]]))
print(tape.gradient(loss, updates))
print(tape.gradient(u, [t, updates]))
