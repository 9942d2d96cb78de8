import tensorflow as tf

print(tf.zeros([2, 3]))
print(tf.ones(3, dtype=tf.int32))
print(tf.zeros((), tf.float64))
print(tf.ones([2, 0]))
print(tf.zeros([2], dtype=tf.bool))
