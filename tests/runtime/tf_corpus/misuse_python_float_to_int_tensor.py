import tensorflow as tf

try:
    tf.constant([1, 2]) + 0.5
except Exception as e:
    print(type(e).__name__)
print(tf.constant([1, 2]) + 1)
print(tf.constant([1.0, 2.0]) + 1)
