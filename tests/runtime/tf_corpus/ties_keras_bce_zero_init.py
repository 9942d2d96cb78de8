import tensorflow as tf
from tensorflow import keras

# a zero-initialised output layer trained with BinaryCrossentropy(from_logits=True): the first step
x = tf.constant([[1.0, 2.0], [-1.0, 0.5], [0.0, 1.0], [2.0, -2.0]])
y = tf.constant([[1.0], [0.0], [1.0], [0.0]])
layer = keras.layers.Dense(1, kernel_initializer="zeros", bias_initializer="zeros")
loss_fn = keras.losses.BinaryCrossentropy(from_logits=True)
with tf.GradientTape() as tape:
    loss = loss_fn(y, layer(x))
grads = tape.gradient(loss, layer.trainable_variables)
print(loss)
for g in grads:
    print(g)
opt = keras.optimizers.SGD(learning_rate=1.0)
opt.apply_gradients(zip(grads, layer.trainable_variables))
print(layer.kernel.numpy().tolist(), layer.bias.numpy().tolist())
