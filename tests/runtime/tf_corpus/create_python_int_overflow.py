import tensorflow as tf

print(tf.constant(2 ** 31 - 1).dtype)
print(tf.constant(2 ** 31).dtype)
print(tf.constant([1, 2 ** 33]).dtype)
print(tf.constant(-(2 ** 31)).dtype)
