import tensorflow as tf
import numpy as np


def show(t):
    """Values to 6 decimals: TF's float32 exp/log/sigmoid can differ from numpy's in the last bit."""
    print(t.dtype.name, t.shape, np.round(t.numpy(), 6) + 0.0)


x = tf.constant([-100.0, 0.0, 100.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.math.log_sigmoid(x)
print(y)
show(tape.gradient(y, x))
