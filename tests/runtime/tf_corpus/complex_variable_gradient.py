import tensorflow as tf

# gradients with respect to complex variables: TF gives d/dRe + i d/dIm
z = tf.Variable([1 + 2j, 0.5 - 1j])
print(z)
with tf.GradientTape(persistent=True) as tape:
    lin = tf.reduce_sum(tf.math.imag(z) * 3 + tf.math.real(z) * 2)
    sq = tf.reduce_sum(tf.abs(z * z))
    ab = tf.reduce_sum(tf.abs(z))
    cj = tf.reduce_sum(tf.math.real(tf.math.conj(z) * z))
    mul = tf.reduce_sum(tf.math.real(z * tf.constant([2 - 1j, 1j], dtype=tf.complex128)))
    ex = tf.reduce_sum(tf.math.real(tf.exp(z)))
print("real/imag", tape.gradient(lin, z))
print("abs(z*z)", tape.gradient(sq, z))
print("abs", tape.gradient(ab, z).numpy().round(6))
print("conj(z)*z", tape.gradient(cj, z))
print("multiply", tape.gradient(mul, z))
print("exp", tape.gradient(ex, z).numpy().round(6))

# complex64, and a complex target (TF seeds it with ones)
w = tf.Variable([1 + 1j, 2 - 1j], dtype=tf.complex64)
with tf.GradientTape(persistent=True) as tape:
    y = w * w
    s = tf.reduce_sum(w * tf.constant([1j, 2.0], dtype=tf.complex64))
print("complex target", tape.gradient(y, w))
print("complex sum", tape.gradient(s, w))
print("output_gradients", tape.gradient(y, w, output_gradients=tf.constant([1j, 1.0], dtype=tf.complex64)))
