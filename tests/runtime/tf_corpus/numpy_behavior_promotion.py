import numpy as np
import tensorflow as tf

tnp = tf.experimental.numpy
tnp.experimental_enable_numpy_behavior()

# Operators promote dtypes as numpy does; Python numbers take the tensor's dtype
f32 = tf.constant([1.0, 2.0])
f64 = tf.constant([1.0, 2.0], tf.float64)
i32 = tf.constant([1, 2])
i64 = tf.constant([1, 2], tf.int64)
print(f32 + 1.5, f32 + 2, i32 + 2, i32 + i64)
print(f32 + i32, i32 * f32, f32 + f64, f32 - np.float64(1.5))
print(f32 + np.array([1.0, 2.0], np.float32), f32 * np.array([1, 2]))
print(i32 / i32, i32 // 2, f32 ** 2, i32 ** 0.5)
print(f32 == f64, f32 < 1.5, tf.constant([True, False]) + 1)
try:
    tf.add(f32, i32)
except Exception as e:
    print("tf.add keeps TF's rule:", type(e).__name__)

# gradients through promoted operators come back in each source's dtype
v = tf.Variable([0.5, -1.5])
w = tf.Variable([2.0, 3.0], dtype=tf.float64)
with tf.GradientTape() as tape:
    y = tf.reduce_sum((v * w) ** 2 + v * i32 + w / i32)
g = tape.gradient(y, [v, w])
print(y)
print(g)
