import tensorflow as tf

# abs, sign, sqrt, pow and friends exactly at 0
x = tf.constant([-1.0, 0.0, 2.0])
ops = [
    ("abs", tf.abs), ("sign", tf.sign), ("square", tf.square), ("sqrt", tf.sqrt),
    ("pow_2", lambda t: tf.pow(t, 2.0)), ("pow_half", lambda t: tf.pow(t, 0.5)),
    ("pow_int", lambda t: t ** 3), ("rsqrt", tf.math.rsqrt), ("log1p", tf.math.log1p),
    ("floor", tf.floor), ("round", tf.round), ("relu", tf.nn.relu),
    ("reciprocal_no_nan", tf.math.reciprocal_no_nan), ("div_no_nan", lambda t: tf.math.divide_no_nan(1.0, t)),
    ("xlogy", lambda t: tf.math.xlogy(t, t)), ("xdivy", lambda t: tf.math.xdivy(t, t)),
]
for name, f in ops:
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    g = tape.gradient(y, x)
    print(name, None if g is None else (g.numpy().round(6) + 0.0).tolist())

# d/dy x**y at x = 0, and d/dx at 0 for positive exponents
base = tf.constant([0.0, 0.0, 2.0])
expo = tf.constant([1.0, 2.0, 0.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch([base, expo])
    p = tf.pow(base, expo)
print("pow", p.numpy().tolist(), tape.gradient(p, base).numpy().tolist(), tape.gradient(p, expo).numpy().tolist())
