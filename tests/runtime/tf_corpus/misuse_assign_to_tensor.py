import tensorflow as tf

t = tf.constant([1.0, 2.0])
try:
    t[0] = 5.0
except Exception as e:
    print(type(e).__name__)
try:
    t.assign([3.0, 4.0])
except Exception as e:
    print(type(e).__name__)
