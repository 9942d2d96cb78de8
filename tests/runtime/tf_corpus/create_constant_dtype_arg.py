import tensorflow as tf

print(tf.constant(1, dtype=tf.float32))
print(tf.constant([1.0, 2.0], dtype=tf.float64))
print(tf.constant(3, dtype=tf.int64))
try:
    tf.constant(1.5, dtype=tf.int32)
except Exception as e:
    print(type(e).__name__)
try:
    tf.constant([1, 0], dtype=tf.bool)
except Exception as e:
    print(type(e).__name__)
print(tf.constant([True, False], dtype=tf.bool))
