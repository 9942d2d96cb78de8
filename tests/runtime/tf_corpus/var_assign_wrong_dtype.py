import tensorflow as tf

v = tf.Variable([1.0, 2.0])
try:
    v.assign(tf.constant([1, 2]))
except Exception as e:
    print(type(e).__name__)
w = tf.Variable(1)
try:
    w.assign(2.5)
except Exception as e:
    print(type(e).__name__)
print(v.numpy(), w.numpy())
