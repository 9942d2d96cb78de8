import tensorflow as tf
import numpy as np

for value in [1, 1.0, True, [1, 2], [1.0, 2], [[True, False]], np.float64(1.0), np.array([1, 2]),
              np.array([1.0], dtype=np.float16), 2 ** 40, "hi", [b"a", b"bc"]]:
    t = tf.constant(value)
    print(t.dtype, t.shape)
