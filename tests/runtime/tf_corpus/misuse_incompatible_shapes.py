import tensorflow as tf

try:
    tf.constant([1.0, 2.0]) + tf.constant([1.0, 2.0, 3.0])
except Exception as e:
    print(type(e).__name__)
try:
    tf.matmul(tf.ones([2, 3]), tf.ones([2, 3]))
except Exception as e:
    print(type(e).__name__)
try:
    tf.reshape(tf.range(6), [4, -1])
except Exception as e:
    print(type(e).__name__)
