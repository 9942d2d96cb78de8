import tensorflow as tf

# tf.nn activations exactly at their kinks: the gradient TF gives there
x = tf.constant([-1.0, 0.0, 1.0])
acts = [
    ("relu", tf.nn.relu),
    ("elu", tf.nn.elu),
    ("selu", tf.nn.selu),
    ("leaky_relu", lambda t: tf.nn.leaky_relu(t, alpha=0.2)),
    ("softplus", tf.nn.softplus),
    ("softsign", tf.nn.softsign),
    ("silu", tf.nn.silu),
    ("gelu", tf.nn.gelu),
    ("gelu_approx", lambda t: tf.nn.gelu(t, approximate=True)),
    ("sigmoid", tf.nn.sigmoid),
    ("tanh", tf.nn.tanh),
]
for name, f in acts:
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    g = tape.gradient(y, x)
    print(name, (g.numpy().round(6) + 0.0).tolist())

# relu6 at both of its kinks
k = tf.constant([-1.0, 0.0, 3.0, 6.0, 7.0])
with tf.GradientTape() as tape:
    tape.watch(k)
    y = tf.nn.relu6(k)
print("relu6", (tape.gradient(y, k).numpy() + 0.0).tolist())
