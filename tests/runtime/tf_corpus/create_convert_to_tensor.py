import tensorflow as tf
import numpy as np

print(tf.convert_to_tensor(1.5))
print(tf.convert_to_tensor([1, 2]))
print(tf.convert_to_tensor(np.array([1.0, 2.0])))
print(tf.convert_to_tensor(2, dtype=tf.float32))
print(tf.convert_to_tensor(3, dtype_hint=tf.float32))
print(tf.convert_to_tensor(3.5, dtype_hint=tf.int32))
try:
    tf.convert_to_tensor(tf.constant(1.0), dtype=tf.float64)
except Exception as e:
    print(type(e).__name__)
