import tensorflow as tf

# maximum/minimum ties: the whole gradient to the first argument
a = tf.constant([1.0, 2.0, 3.0])
b = tf.constant([1.0, 1.0, 3.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch([a, b])
    mx = tf.maximum(a, b)
    mn = tf.minimum(a, b)
    mx_scalar = tf.maximum(a, 2.0)
    mn_scalar = tf.minimum(2.0, a)
print("maximum", tape.gradient(mx, [a, b]))
print("minimum", tape.gradient(mn, [a, b]))
print("maximum scalar", tape.gradient(mx_scalar, a))
print("minimum scalar first", tape.gradient(mn_scalar, a))

# broadcasting ties
m = tf.constant([[1.0, 2.0], [2.0, 2.0]])
v = tf.constant([2.0, 2.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch([m, v])
    y = tf.reduce_sum(tf.maximum(m, v) * tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    z = tf.reduce_sum(tf.minimum(v, m) * tf.constant([[1.0, 2.0], [3.0, 4.0]]))
print("maximum broadcast", tape.gradient(y, [m, v]))
print("minimum broadcast", tape.gradient(z, [m, v]))

# python max/min builtins on tensors
s = tf.constant(2.0)
t = tf.constant(2.0)
with tf.GradientTape(persistent=True) as tape:
    tape.watch([s, t])
    y = tf.math.maximum(s, t) + 2.0 * tf.math.minimum(t, s)
print("scalar ties", tape.gradient(y, [s, t]))
