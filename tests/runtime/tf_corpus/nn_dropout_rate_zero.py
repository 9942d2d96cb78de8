import tensorflow as tf

x = tf.constant([1.0, 2.0, 3.0])
print(tf.nn.dropout(x, rate=0.0))
