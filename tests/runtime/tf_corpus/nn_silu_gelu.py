import tensorflow as tf
import numpy as np


def show(t):
    """Values to 6 decimals: TF's float32 exp/log/sigmoid can differ from numpy's in the last bit."""
    print(t.dtype.name, t.shape, np.round(t.numpy(), 6) + 0.0)


x = tf.constant([-1.0, 0.0, 1.0])
show(tf.nn.silu(x))
show(tf.nn.swish(x))
show(tf.nn.gelu(x))
show(tf.nn.gelu(x, approximate=True))
print(tf.nn.silu(tf.constant(0.0)), tf.nn.gelu(tf.constant(0.0)))
