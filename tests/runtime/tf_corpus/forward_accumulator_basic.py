import tensorflow as tf

x = tf.constant([1.0, 2.0])
v = tf.constant([1.0, 0.0])
with tf.autodiff.ForwardAccumulator(x, v) as acc:
    y = tf.reduce_sum(x * x * x)
print(y)
print(acc.jvp(y))
