import tensorflow as tf

try:
    tf.constant("a") + tf.constant(1)
except Exception as e:
    print(type(e).__name__)
print(tf.constant("a") + tf.constant("b"))
