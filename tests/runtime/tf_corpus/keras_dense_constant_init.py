import tensorflow as tf

layer = tf.keras.layers.Dense(2, kernel_initializer=tf.constant_initializer(0.5),
                              bias_initializer=tf.constant_initializer([1.0, -1.0]))
y = layer(tf.constant([[1.0, 2.0, 3.0]]))
print(y)
print(layer.kernel.numpy())
print(layer.bias.numpy())
