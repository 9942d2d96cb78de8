import tensorflow as tf
import numpy as np


def show(t):
    """Values to 6 decimals: TF's float32 exp/log/sigmoid can differ from numpy's in the last bit."""
    print(t.dtype.name, t.shape, np.round(t.numpy(), 6) + 0.0)


x = tf.constant([-1.0, 0.0, 1.0])
print(tf.keras.activations.relu(x))
show(tf.keras.activations.sigmoid(x))
show(tf.keras.activations.tanh(x))
show(tf.keras.activations.softmax(tf.constant([[0.0, 1.0]])))
print(tf.keras.activations.linear(x))
