import tensorflow as tf

# reduce_max / reduce_min: the gradient split evenly among tied elements
x = tf.constant([[3.0, 1.0, 3.0, 3.0], [2.0, 2.0, 0.0, -1.0]])
cases = [
    ("reduce_max all", lambda t: tf.reduce_max(t)),
    ("reduce_max axis0", lambda t: tf.reduce_max(t, axis=0)),
    ("reduce_max axis1", lambda t: tf.reduce_max(t, axis=1)),
    ("reduce_max keepdims", lambda t: tf.reduce_max(t, axis=1, keepdims=True)),
    ("reduce_min all", lambda t: tf.reduce_min(t)),
    ("reduce_min axis0", lambda t: tf.reduce_min(t, axis=0)),
    ("reduce_min axis1", lambda t: tf.reduce_min(t, axis=1)),
    ("math.reduce_max neg axis", lambda t: tf.math.reduce_max(t, axis=-1)),
]
w = tf.constant([1.0, 2.0, 3.0, 4.0])
for name, f in cases:
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    print(name, y.numpy().tolist(), tape.gradient(y, x).numpy().tolist())

# all elements equal
e = tf.constant([5.0, 5.0, 5.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch(e)
    y1 = tf.reduce_max(e)
    y2 = tf.reduce_min(e * w[:3])
print("all equal", tape.gradient(y1, e).numpy().tolist(), tape.gradient(y2, e).numpy().tolist())

# a variable source
v = tf.Variable([[1.0, 4.0], [4.0, 4.0]])
with tf.GradientTape() as tape:
    y = tf.reduce_max(v) * 3.0
print("variable", tape.gradient(y, v).numpy().tolist())
