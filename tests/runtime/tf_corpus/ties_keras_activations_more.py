import tensorflow as tf
from tensorflow import keras

# keras activations at their kinks: value and gradient (relu6 at 0 and 6, hard_sigmoid at -3 and 3,
# the shrinks at +-threshold, celu and hard_tanh at their joins)
x = tf.constant([-3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 3.0, 6.0])
for name in ["relu6", "gelu", "hard_sigmoid", "hard_silu", "hard_tanh", "mish", "celu", "hard_shrink",
             "soft_shrink", "tanh_shrink", "log_sigmoid", "silu"]:
    fn = keras.activations.get(name)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
    g = tape.gradient(y, x)
    print(name, (y.numpy().round(5) + 0.0).tolist(), (g.numpy().round(5) + 0.0).tolist())

with tf.GradientTape() as tape:
    tape.watch(x)
    y = keras.activations.gelu(x, approximate=True)
print("gelu approximate", (y.numpy().round(5) + 0.0).tolist(), (tape.gradient(y, x).numpy().round(5) + 0.0).tolist())
with tf.GradientTape() as tape:
    tape.watch(x)
    y = keras.activations.celu(x, alpha=0.5) + keras.activations.soft_shrink(x, threshold=1.0)
print("celu 0.5 + soft_shrink 1", (y.numpy().round(5) + 0.0).tolist(), (tape.gradient(y, x).numpy().round(5) + 0.0).tolist())
m = tf.constant([[0.0, 1.0, -2.0, 0.5], [1.5, -0.5, 0.0, 2.0]])
with tf.GradientTape() as tape:
    tape.watch(m)
    y = keras.activations.glu(m)
print("glu", y.numpy().round(5).tolist(), tape.gradient(y, m).numpy().round(5).tolist())
