import tensorflow as tf
from tensorflow import keras

# activation layers at 0
x = tf.constant([[-1.0, 0.0, 1.0, 6.0]])
layers = [keras.layers.ReLU(), keras.layers.Activation("relu"), keras.layers.Activation("elu"),
          keras.layers.Activation("selu"), keras.layers.Activation("leaky_relu"), keras.layers.Activation("softsign")]
for layer in layers:
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = layer(x)
    print(type(layer).__name__, (tape.gradient(y, x).numpy().round(6) + 0.0).tolist())

# a Dense layer with a relu activation whose pre-activations are exactly 0
dense = keras.layers.Dense(2, activation="relu", kernel_initializer="zeros", bias_initializer="zeros")
with tf.GradientTape() as tape:
    y = tf.reduce_sum(dense(tf.constant([[1.0, 2.0]])))
print([(g.numpy() + 0.0).tolist() for g in tape.gradient(y, dense.trainable_variables)])
