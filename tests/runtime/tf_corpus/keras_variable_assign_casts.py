import tensorflow as tf

layer = tf.keras.layers.Dense(1, kernel_initializer="zeros")
layer.build((None, 2))
layer.kernel.assign(tf.constant([[1], [2]]))
print(layer.kernel.numpy())
try:
    layer.kernel.assign([[1.0, 2.0]])
except Exception as e:
    print(type(e).__name__)
layer.kernel.assign_add(tf.ones([2, 1]))
print(layer.kernel.numpy().tolist())
