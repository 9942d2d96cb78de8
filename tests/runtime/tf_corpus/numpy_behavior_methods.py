import numpy as np
import tensorflow as tf

tnp = tf.experimental.numpy
tnp.experimental_enable_numpy_behavior()

# TF 2.21's ndarray methods on tensors, and gradients through them
t = tf.constant([[1.0, 2.0], [3.0, 4.0]])
print(t.reshape(4))
print(t.reshape((1, 4)))
print(t.reshape(2, 2))
print(t.reshape(4, order="F"))
print(t.ravel())
print(t.flatten())
print(t.T)
print(t.transpose())
print(t.transpose((1, 0)))
print(t.astype(np.float64))
print(t.astype("int32"))
print(t.clip(1.5, 3))
print(t.max(), t.max(axis=0), t.max(1, keepdims=True))
print(t.min(axis=1))
print(t.mean(), t.mean(axis=0), t.mean(axis=0, dtype=np.float64))
print(repr(t.size), t.data, t.tolist(), len(t), t.ndim)

v = tf.Variable([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]])
print("a Variable has them too:", hasattr(v, "reshape"))
with tf.GradientTape() as tape:
    x = tf.identity(v)
    y = (x.reshape(3, 2).T.ravel() ** 2).mean() + x.max(axis=1).mean() + x.clip(-0.6, 1.0).flatten().max()
    z = x.transpose().reshape(-1)[1] * x.min() + x.astype(np.float64).mean().astype(np.float32)
print(tape.gradient(y + z, v))
