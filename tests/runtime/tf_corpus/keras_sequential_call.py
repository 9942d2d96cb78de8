import tensorflow as tf

model = tf.keras.Sequential([
    tf.keras.layers.Dense(3, activation="relu", kernel_initializer="ones", bias_initializer="zeros"),
    tf.keras.layers.Dense(1, kernel_initializer=tf.constant_initializer(0.5)),
])
x = tf.constant([[1.0, -2.0], [0.5, 0.5]])
print(model(x))
print(len(model.trainable_variables))
print([v.shape for v in model.trainable_variables])
