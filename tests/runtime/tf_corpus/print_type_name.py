import tensorflow as tf

t = tf.constant([1.0])
print(type(t).__name__)
print(isinstance(t, tf.Tensor))
v = tf.Variable(1.0)
print(type(v).__name__)
print(isinstance(v, tf.Variable))
try:
    t[0] = 1.0
except Exception as e:
    print(type(e).__name__)
