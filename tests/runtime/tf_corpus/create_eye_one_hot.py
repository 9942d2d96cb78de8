import tensorflow as tf

print(tf.eye(3))
print(tf.eye(2, 3, dtype=tf.int32))
print(tf.one_hot([0, 2, -1], 3))
print(tf.one_hot([1], 2, on_value=5, off_value=-1))
