import tensorflow as tf

# Known difference (docs/runtime/tf-compatibility.md): TF's pow gradient is y * x**(y - 1), which is
# 0 * inf = nan at x = 0, y = 0 (x**0 is the constant 1 there: the tape gives 0), and its log(x) for
# d/dy is masked to 0 where x <= 0 (the tape gives nan where x < 0: no real derivative exists).
x = tf.constant([0.0, 0.0, -1.0, 2.0])
y = tf.constant([0.0, 1.0, 2.0, 0.0])
with tf.GradientTape() as tape:
    tape.watch([x, y])
    z = tf.pow(x, y)
print(z)
print(tape.gradient(z, [x, y]))
s = tf.constant(0.0)
with tf.GradientTape() as outer:
    outer.watch(s)
    with tf.GradientTape() as inner:
        inner.watch(s)
        w = s ** 1.0
    g = inner.gradient(w, s)
print(g, outer.gradient(g, s))
