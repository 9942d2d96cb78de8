import tensorflow as tf

print([tf.Variable(1.0, name="v")])
print((tf.constant([1, 2]), tf.constant("s")))
print(str([tf.constant(0.5)]))
