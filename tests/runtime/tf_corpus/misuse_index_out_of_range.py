import tensorflow as tf

x = tf.constant([1, 2, 3])
try:
    x[5]
except Exception as e:
    print(type(e).__name__)
try:
    tf.gather(x, [4])
except Exception as e:
    print(type(e).__name__)
print(x[-1])
