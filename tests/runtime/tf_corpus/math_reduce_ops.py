import tensorflow as tf
import numpy as np

x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
print(tf.reduce_sum(x), tf.reduce_sum(x, axis=0), tf.reduce_sum(x, axis=1, keepdims=True))
print(tf.reduce_mean(x, axis=-1))
print(tf.reduce_prod(x, axis=0))
print(np.round(tf.reduce_logsumexp(x, axis=1).numpy(), 5))
print(tf.math.reduce_std(x), tf.math.reduce_variance(x, axis=0))
print(tf.reduce_mean(tf.constant([1, 2])))
