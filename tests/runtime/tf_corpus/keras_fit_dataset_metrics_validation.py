import numpy as np
import tensorflow as tf

x = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [2.0, 1.0], [0.5, -1.0], [-1.0, 0.5]], dtype=np.float32)
y = np.array([[1.0], [0.0], [1.0], [1.0], [0.0], [0.0]], dtype=np.float32)
model = tf.keras.Sequential([
    tf.keras.Input(shape=(2,)),
    tf.keras.layers.Dense(3, activation="tanh",
                          kernel_initializer=tf.constant_initializer([[0.5, -0.5, 0.25], [0.1, 0.2, -0.3]])),
    tf.keras.layers.Dense(1, activation="sigmoid", kernel_initializer=tf.constant_initializer([[1.0], [-1.0], [0.5]]))])
model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss="binary_crossentropy",
              metrics=["accuracy"])
train = tf.data.Dataset.from_tensor_slices((x[:4], y[:4])).batch(3)
val = tf.data.Dataset.from_tensor_slices((x[4:], y[4:])).batch(2)
history = model.fit(train, validation_data=val, epochs=4, verbose=0, shuffle=False)
for key in sorted(history.history):
    print(key, [round(v, 5) for v in history.history[key]])
print(history.epoch)
print(np.round(model.layers[1].kernel.numpy(), 5))
print(model.evaluate(val, verbose=0, return_dict=True).keys())
print(np.round(model.predict(val, verbose=0), 5))
