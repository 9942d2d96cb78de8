import tensorflow as tf
import numpy as np

logits = tf.constant([0.0, 2.0, -1.0])
labels = tf.constant([1.0, 0.0, 1.0])
loss = tf.nn.weighted_cross_entropy_with_logits(labels=labels, logits=logits, pos_weight=2.0)
print(np.round(loss.numpy(), 5))
print(tf.nn.compute_average_loss(tf.constant([1.0, 2.0, 3.0, 6.0])))
print(tf.nn.compute_average_loss(tf.constant([1.0, 2.0]), global_batch_size=8))
print(tf.nn.compute_average_loss(tf.constant([1.0, 2.0]), sample_weight=tf.constant([0.5, 2.0])))
print(tf.math.scalar_mul(3.0, tf.constant([1.0, 2.0])))
