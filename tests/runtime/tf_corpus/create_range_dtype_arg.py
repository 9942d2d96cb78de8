import tensorflow as tf

print(tf.range(4, dtype=tf.float64))
print(tf.range(3, dtype=tf.int64))
print(tf.range(2.5))
print(tf.range(0))
