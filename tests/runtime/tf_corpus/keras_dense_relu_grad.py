import tensorflow as tf

layer = tf.keras.layers.Dense(2, activation="relu", kernel_initializer=tf.constant_initializer([[1.0, -1.0], [2.0, 0.5]]),
                              bias_initializer="zeros")
x = tf.constant([[1.0, 1.0], [-1.0, 2.0]])
with tf.GradientTape() as tape:
    y = layer(x)
    loss = tf.reduce_sum(y)
print(y)
g = tape.gradient(loss, layer.trainable_variables)
print(g[0])
print(g[1])
