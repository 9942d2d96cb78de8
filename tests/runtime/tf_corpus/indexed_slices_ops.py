import tensorflow as tf

emb = tf.Variable([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]])
with tf.GradientTape() as tape:
    y = tf.reduce_sum(tf.gather(emb, [0, 0, 2]) * tf.constant([[1.0, 2.0]]))
g = tape.gradient(y, emb)
print(g.dense_shape)
print(tf.convert_to_tensor(g))
emb.assign_sub(tf.convert_to_tensor(g) * 0.5)
print(emb.numpy())
