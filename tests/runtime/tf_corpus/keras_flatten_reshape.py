import tensorflow as tf

x = tf.reshape(tf.range(12.0), [2, 2, 3])
print(tf.keras.layers.Flatten()(x))
print(tf.keras.layers.Reshape((3, 2))(x).shape)
