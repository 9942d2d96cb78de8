import tensorflow as tf

print(tf.constant(0.5, shape=[2, 3]))
print(tf.constant([1, 2, 3, 4], shape=[2, 2]))
try:
    tf.constant([1, 2, 3], shape=[2, 2])
except Exception as e:
    print(type(e).__name__)
