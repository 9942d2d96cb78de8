import tensorflow as tf

t = tf.constant([1.0])
print(type(t).__name__)
print(isinstance(t, tf.Tensor))
