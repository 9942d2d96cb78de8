import tensorflow as tf
import numpy as np


def show(t):
    """Values to 6 decimals: TF's float32 exp/log/sigmoid can differ from numpy's in the last bit."""
    print(t.dtype.name, t.shape, np.round(t.numpy(), 6) + 0.0)


logits = tf.constant([[2.0, 1.0, 0.1], [0.0, 0.0, 0.0]])
with tf.GradientTape() as tape:
    tape.watch(logits)
    loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0, 2], logits=logits)
show(loss)
show(tape.gradient(loss, logits))
