import tensorflow as tf

layer = tf.keras.layers.Dense(2, kernel_initializer="ones", bias_initializer="zeros")
layer.build((None, 3))
print(layer.kernel)
print(repr(layer.bias))
print(layer.kernel.path, layer.bias.path)
print(layer.kernel.trainable, layer.kernel.dtype)
