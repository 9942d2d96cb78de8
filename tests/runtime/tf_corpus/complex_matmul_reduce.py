import tensorflow as tf

# matmul and reductions on complex sources, watched constants and variables
a = tf.constant([[1 + 1j, 2.0], [0.5j, -1.0]], dtype=tf.complex128)
b = tf.Variable([[1.0 - 1j], [2j]], dtype=tf.complex128)
with tf.GradientTape(persistent=True) as tape:
    tape.watch(a)
    m = tf.matmul(a, b)
    loss = tf.reduce_sum(tf.math.real(m) ** 2 + tf.math.imag(m))
    total = tf.reduce_sum(m)
    mag = tf.reduce_sum(tf.abs(m) ** 2)
print("matmul", m)
print("d/da", tape.gradient(loss, a))
print("d/db", tape.gradient(loss, b))
print("sum d/da", tape.gradient(total, a))
print("abs^2 d/db", tape.gradient(mag, b))
print("mixed", tape.gradient(loss, [a, b]))

# a real source feeding a complex computation
r = tf.constant([1.0, 2.0], dtype=tf.float64)
with tf.GradientTape() as tape:
    tape.watch(r)
    c = tf.complex(r, 2.0 * r) * tf.constant([1j, 1.0], dtype=tf.complex128)
    y = tf.reduce_sum(tf.math.imag(c) + tf.abs(c))
print("real source", tape.gradient(y, r).numpy().round(6))
