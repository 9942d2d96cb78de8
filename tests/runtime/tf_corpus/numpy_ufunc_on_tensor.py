import tensorflow as tf
import numpy as np

t = tf.constant([1.0, 2.0])
print(np.square(t))
print(np.exp(t) is not None)
