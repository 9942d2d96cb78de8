import numpy as np
import tensorflow as tf

x = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [2.0, 1.0], [0.5, -1.0]], dtype=np.float32)
y = np.array([[1.0], [2.0], [3.0], [4.5], [-0.5]], dtype=np.float32)
model = tf.keras.Sequential([
    tf.keras.Input(shape=(2,)),
    tf.keras.layers.Dense(1, kernel_initializer=tf.constant_initializer([[0.5], [-0.25]]),
                          bias_initializer="zeros")])
model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(2)
history = model.fit(ds, epochs=3, verbose=0, shuffle=False)
print(history.history["loss"])
print(history.params)
print(model.layers[0].kernel.numpy())
print(model.layers[0].bias.numpy())
print(model.evaluate(ds, verbose=0))
print(model.predict(ds, verbose=0))
print(model.predict(tf.data.Dataset.from_tensor_slices(x).batch(3), verbose=0))
