import tensorflow as tf
import numpy as np

a = tf.Variable(1.0, dtype=tf.float64)
b = tf.Variable(np.array([1.0, 2.0]))
c = tf.Variable(2, dtype=tf.float32)
print(a)
print(b)
print(c)
