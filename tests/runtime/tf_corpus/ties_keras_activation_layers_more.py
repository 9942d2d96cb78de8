import numpy as np
import tensorflow as tf
from tensorflow import keras

# activation layers at their kinks: outputs and input gradients; PReLU's alpha gradient
x = tf.constant([[-2.0, -1.0, 0.0, 0.5, 1.0, 3.0]])
layers = {
    "ReLU()": keras.layers.ReLU(),
    "ReLU(max_value=1.0)": keras.layers.ReLU(max_value=1.0),
    "ReLU(max_value=6.0)": keras.layers.ReLU(max_value=6.0),
    "ReLU(negative_slope=0.1, threshold=0.5)": keras.layers.ReLU(negative_slope=0.1, threshold=0.5),
    "ReLU(max_value=3.0, negative_slope=0.2)": keras.layers.ReLU(max_value=3.0, negative_slope=0.2),
    "LeakyReLU()": keras.layers.LeakyReLU(),
    "LeakyReLU(0.1)": keras.layers.LeakyReLU(negative_slope=0.1),
    "ELU()": keras.layers.ELU(),
    "ELU(0.5)": keras.layers.ELU(alpha=0.5),
    "Softmax()": keras.layers.Softmax(),
}
for name, layer in layers.items():
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = layer(x)
        s = tf.reduce_sum(y * tf.constant([[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]]))
    print(name, (y.numpy().round(5) + 0.0).tolist(), (tape.gradient(s, x).numpy().round(5) + 0.0).tolist())

p = keras.layers.PReLU(alpha_initializer=keras.initializers.Constant(0.25))
with tf.GradientTape() as tape:
    tape.watch(x)
    y = p(x)
    s = tf.reduce_sum(y * tf.constant([[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]]))
gx, ga = tape.gradient(s, [x, p.trainable_weights[0]])
print("PReLU", (y.numpy().round(5) + 0.0).tolist(), (gx.numpy().round(5) + 0.0).tolist(), (ga.numpy().round(5) + 0.0).tolist())
print([w.name for w in p.weights], [tuple(w.shape) for w in p.weights])

q = keras.layers.PReLU(shared_axes=[1])
z = tf.constant(np.arange(-3.0, 3.0, dtype="float32").reshape(1, 3, 2))
with tf.GradientTape() as tape:
    y = tf.reduce_sum(q(z) * 2.0)
print("PReLU shared", [tuple(w.shape) for w in q.weights], tape.gradient(y, q.trainable_weights[0]).numpy().tolist())

m = keras.layers.Softmax(axis=-1)
logits = tf.constant([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]])
mask = tf.constant([[True, False, True], [False, False, False]])
with tf.GradientTape() as tape:
    tape.watch(logits)
    y = m(logits, mask=mask)
    s = tf.reduce_sum(y * tf.constant([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]]))
print("Softmax masked", y.numpy().round(5).tolist(), tape.gradient(s, logits).numpy().round(5).tolist())
print("Softmax axes", keras.layers.Softmax(axis=(0, 1))(logits).numpy().round(5).tolist())
