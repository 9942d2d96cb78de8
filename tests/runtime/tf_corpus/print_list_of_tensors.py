import tensorflow as tf

print([tf.constant(1.0), tf.constant([2, 3])])
print((tf.constant(True),))
print({"a": tf.constant(0.5)})
