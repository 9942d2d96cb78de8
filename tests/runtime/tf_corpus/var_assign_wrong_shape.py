import tensorflow as tf

v = tf.Variable([1.0, 2.0])
try:
    v.assign([1.0, 2.0, 3.0])
except Exception as e:
    print(type(e).__name__)
print(v.numpy())
