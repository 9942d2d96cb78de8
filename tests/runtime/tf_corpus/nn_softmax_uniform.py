import tensorflow as tf
import numpy as np


def show(t):
    """Values to 6 decimals: TF's float32 exp/log/sigmoid can differ from numpy's in the last bit."""
    print(t.dtype.name, t.shape, np.round(t.numpy(), 6) + 0.0)


print(tf.nn.softmax(tf.zeros([4])))
print(tf.nn.log_softmax(tf.constant([0.0, 0.0, 0.0])))
show(tf.nn.softmax(tf.constant([[1.0, 1.0], [1000.0, 0.0]])))
show(tf.nn.softmax(tf.constant([1.0, 2.0, 3.0]), axis=0))
show(tf.nn.softmax(tf.constant([[1.0, 2.0], [3.0, 5.0]]), axis=0))
