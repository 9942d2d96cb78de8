import tensorflow as tf

print(repr(tf.Variable(0.1)))
print(repr(tf.Variable(True)))
print(repr(tf.Variable(5, dtype=tf.int64)))
print(repr(tf.Variable(0.5, dtype=tf.float16)))
print(repr(tf.Variable(1.0, dtype=tf.float64)))
