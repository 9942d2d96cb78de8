import tensorflow as tf

layer = tf.keras.layers.Dense(1, kernel_initializer="ones")
layer.build((None, 2))
layer.trainable = False
print(len(layer.trainable_weights), len(layer.non_trainable_weights))
x = tf.constant([[1.0, 2.0]])
with tf.GradientTape() as tape:
    y = layer(x)
print(tape.watched_variables() == ())
