import tensorflow as tf

x = tf.constant([-2.0, 0.0, 2.0])
print(tf.nn.elu(x))
print(tf.nn.selu(x))
print(tf.nn.softplus(tf.constant([-100.0, 0.0, 100.0])))
print(tf.nn.softsign(x))
