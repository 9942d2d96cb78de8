import tensorflow as tf

a = tf.constant(1.0)
print(tf.convert_to_tensor([a, 2.0]))
print(tf.stack([a, a * 2]))
print(tf.convert_to_tensor([[1, 2], [3, 4]]))
