import tensorflow as tf

x = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
with tf.GradientTape(persistent=True) as tape:
    t = tf.tile(x, [2, 3])
    g = tf.gather_nd(x, [[0, 1], [1, 0], [0, 1]])
    bm = tf.boolean_mask(x, [[True, False], [True, True]])
print(t.shape, tape.gradient(t, x))
print(g, tape.gradient(g, x))
print(bm, tape.gradient(bm, x))
