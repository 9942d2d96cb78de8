import tensorflow as tf

try:
    tf.constant(1.0) + tf.constant(1)
except Exception as e:
    print(type(e).__name__)
try:
    tf.add(tf.constant([1.0]), tf.constant([1], tf.int64))
except Exception as e:
    print(type(e).__name__)
try:
    tf.constant(1.0, tf.float64) * tf.constant(2.0)
except Exception as e:
    print(type(e).__name__)
