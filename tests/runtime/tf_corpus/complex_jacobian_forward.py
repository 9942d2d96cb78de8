import tensorflow as tf

# tape.jacobian and ForwardAccumulator with complex sources
z = tf.Variable([1 + 2j, 0.5 - 1j])
with tf.GradientTape(persistent=True) as tape:
    real_out = tf.stack([tf.math.real(z[0] * z[1]), tf.math.imag(z[0]) * 3.0])
    cplx_out = z * tf.constant([2j, 1.0], dtype=tf.complex128)
print("jacobian real out", tape.jacobian(real_out, z))
print("jacobian complex out", tape.jacobian(cplx_out, z))

x = tf.constant([1 + 2j, 0.5 - 1j])
t = tf.constant([1.0 + 0j, 1j])
with tf.autodiff.ForwardAccumulator(x, t) as acc:
    y1 = x * x
    y2 = tf.math.conj(x)
    y3 = tf.math.real(x) * 2.0 + tf.math.imag(x)
    y4 = tf.abs(x)
print("jvp x*x", acc.jvp(y1))
print("jvp conj", acc.jvp(y2))
print("jvp real/imag", acc.jvp(y3))
print("jvp abs", acc.jvp(y4).numpy().round(6))
