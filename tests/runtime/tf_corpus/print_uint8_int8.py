import tensorflow as tf

print(tf.constant([0, 128, 255], dtype=tf.uint8))
print(repr(tf.constant([-128, 0, 127], dtype=tf.int8)))
print(tf.cast(tf.constant([300, -1]), tf.uint8))
