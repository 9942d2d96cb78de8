import tensorflow as tf

print(tf.sequence_mask([1, 3, 2]))
print(tf.sequence_mask([1, 3], maxlen=5, dtype=tf.float32))
print(tf.sequence_mask(tf.constant([[0, 2]]), 3))
