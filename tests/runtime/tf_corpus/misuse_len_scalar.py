import tensorflow as tf

try:
    len(tf.constant(1.0))
except Exception as e:
    print(type(e).__name__)
print(len(tf.zeros([4, 2])))
try:
    for _ in tf.constant(2.0):
        pass
except Exception as e:
    print(type(e).__name__)
