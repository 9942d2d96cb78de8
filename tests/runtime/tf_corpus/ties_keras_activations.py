import tensorflow as tf
from tensorflow import keras

# keras.activations at 0 (the kink of the piecewise ones) and at +-1
x = tf.constant([-1.0, 0.0, 1.0])
names = ["relu", "elu", "selu", "leaky_relu", "softplus", "softsign", "silu", "swish", "sigmoid", "tanh",
         "linear", "exponential", "log_softmax", "softmax"]
for name in names:
    f = getattr(keras.activations, name)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    g = tape.gradient(y, x)
    print(name, (g.numpy().round(6) + 0.0).tolist())

# relu's own tie points: threshold, max_value, negative_slope
k = tf.constant([-3.0, -1.0, 0.0, 1.0, 2.5, 3.0, 6.0])
for kw in [dict(threshold=1.0), dict(max_value=2.5), dict(negative_slope=0.5), dict(max_value=6.0),
           dict(negative_slope=0.5, threshold=1.0, max_value=6.0)]:
    with tf.GradientTape() as tape:
        tape.watch(k)
        y = keras.activations.relu(k, **kw)
    print("relu", sorted(kw.items()), y.numpy().round(6).tolist(), (tape.gradient(y, k).numpy().round(6) + 0.0).tolist())
