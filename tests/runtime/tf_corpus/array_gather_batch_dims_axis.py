# tf.gather with batch_dims and an axis past them (and their gradients), as TF 2.21 lays them out
import tensorflow as tf, numpy as np
p = tf.Variable(np.arange(48.0).reshape(2, 3, 4, 2))
i = tf.constant([[0, 3, 3], [1, 0, 2]])
for axis, bd in ((1, 1), (2, 1), (3, 1), (2, 2), (3, 2), (-2, 1)):
    ii = i % p.shape[axis] if bd == 1 else tf.constant([[[0, 1], [1, 1], [2, 0]], [[3, 3], [0, 1], [1, 0]]]) % (p.shape[axis])
    with tf.GradientTape() as tape:
        y = tf.gather(p, ii, axis=axis, batch_dims=bd)
        loss = tf.reduce_sum(y * tf.cast(tf.reshape(tf.range(tf.size(y)), y.shape), y.dtype))
    print(axis, bd, y.shape, tf.reduce_sum(y).numpy())
    print(tf.convert_to_tensor(tape.gradient(loss, p)).numpy().ravel().tolist())
