import numpy as np
import tensorflow as tf


class TwoInputs(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.a = tf.keras.layers.Dense(1, kernel_initializer="ones", use_bias=False)
        self.b = tf.keras.layers.Dense(1, kernel_initializer="zeros", bias_initializer="ones")

    def call(self, inputs):
        return self.a(inputs["a"]) + self.b(inputs["b"])


features = {"a": np.array([[1.0], [2.0], [3.0], [4.0]], np.float32),
            "b": np.array([[0.5], [0.0], [-0.5], [1.0]], np.float32)}
labels = np.array([[2.0], [2.5], [4.0], [3.0]], np.float32)
weights = np.array([1.0, 0.0, 2.0, 0.5], np.float32)
model = TwoInputs()
model.compile(optimizer=tf.keras.optimizers.SGD(0.01), loss="mse")
ds = tf.data.Dataset.from_tensor_slices((features, labels, weights)).batch(2)
history = model.fit(ds, epochs=2, verbose=0)
print([round(v, 6) for v in history.history["loss"]])
for v in model.trainable_variables:
    print(v.path, v.numpy().ravel())
print(np.round(model.predict(tf.data.Dataset.from_tensor_slices(features).batch(4), verbose=0).ravel(), 5))
only_x = tf.data.Dataset.from_tensor_slices((features,)).batch(4)
print(np.round(model.predict(only_x, verbose=0).ravel(), 5))
