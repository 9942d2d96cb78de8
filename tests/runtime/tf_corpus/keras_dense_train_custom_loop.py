import numpy as np
import tensorflow as tf

layer = tf.keras.layers.Dense(2, kernel_initializer=tf.constant_initializer([[0.1, -0.2], [0.3, 0.4]]),
                              bias_initializer=tf.constant_initializer([0.05, -0.05]))
opt = tf.keras.optimizers.Adam(learning_rate=0.01)
x = tf.constant([[1.0, 2.0], [-1.0, 0.5], [0.0, 1.0]])
y = tf.constant([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
for step in range(3):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(layer(x) - y))
    grads = tape.gradient(loss, layer.trainable_variables)
    opt.apply_gradients(zip(grads, layer.trainable_variables))
    print(step, loss.numpy())
print(layer.kernel.numpy(), layer.bias.numpy())
print(int(opt.iterations), [v.path for v in opt.variables][:3])
