import tensorflow as tf
import numpy as np

t = tf.constant([1.0, 2.0])
print(np.asarray(t))
print(t.numpy().dtype)
print(float(tf.constant(2.5)))
print(int(tf.constant(7)))
print(tf.constant(3.0).numpy())
