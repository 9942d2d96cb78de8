import tensorflow as tf

try:
    tf.Variable(1.5, dtype=tf.int32)
except Exception as e:
    print(type(e).__name__)
try:
    tf.Variable(None)
except Exception as e:
    print(type(e).__name__)
