"""Complex sources on the tape get TF's gradient, d/dRe + i d/dIm of a real loss (the conjugate of
the transpiler's, autograd's convention), whichever way the loss was computed: tape ops, a
``@differentiate`` function recorded as one op, a ``tf.custom_gradient`` whose grad_fn is written
in TF's convention.  The reference is central finite differences along the real and imaginary
axes (tf_corpus/complex_*.py hold TF 2.21's own numbers for the tape ops)."""

import numpy as np

import runtime as tf
from transpiler import differentiate

Z = np.array([1 + 2j, 0.5 - 1j, -0.3 + 0.2j])
C = np.array([2 - 1j, 1j, 0.5 + 0.5j])


def loss_np(z):
    return np.sum(np.abs(z * z) + np.real(z * C) * np.imag(z))


def tf_gradient_by_differences(f, z, eps=1e-6):
    """d f / d Re z + i d f / d Im z, by central differences in float64."""
    g = np.zeros(z.shape, dtype=complex)
    for k in range(z.size):
        for unit, part in ((1.0, 1.0), (1j, 1j)):
            up, dn = z.copy(), z.copy()
            up[k] += unit * eps
            dn[k] -= unit * eps
            g[k] += part * (f(up) - f(dn)) / (2 * eps)
    return g


@differentiate
def loss_transpiled(z):
    return np.sum(np.abs(z * z) + np.real(z * C) * np.imag(z))


def test_tape_ops_give_tf_convention():
    z = tf.Variable(Z)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.abs(z * z) + tf.math.real(z * tf.constant(C)) * tf.math.imag(z))
    np.testing.assert_allclose(tape.gradient(y, z).numpy(), tf_gradient_by_differences(loss_np, Z), atol=1e-6)


def test_differentiate_inside_tape_gives_tf_convention_and_transpiler_keeps_its_own():
    want = tf_gradient_by_differences(loss_np, Z)
    z = tf.Variable(Z)
    with tf.GradientTape() as tape:
        y = loss_transpiled(z)
    np.testing.assert_allclose(tape.gradient(y, z).numpy(), want, atol=1e-6)
    np.testing.assert_allclose(loss_transpiled.grad(Z), np.conj(want), atol=1e-6)


def test_jacobian_rows_and_output_gradients_give_tf_convention():
    z = tf.Variable(Z)
    with tf.GradientTape(persistent=True) as tape:
        parts = tf.stack([tf.math.real(z[0] * z[1]), tf.abs(z[2]) ** 2])
        w = z * tf.constant(C)
    jac = tape.jacobian(parts, z).numpy()
    rows = [lambda v: np.real(v[0] * v[1]), lambda v: np.abs(v[2]) ** 2]
    for i, row in enumerate(rows):
        np.testing.assert_allclose(jac[i], tf_gradient_by_differences(row, Z), atol=1e-6)
    # a complex target with a complex cotangent u: the gradient of Re(sum(conj(u) * w))
    u = np.array([1j, 1.0, 2 - 1j])
    got = tape.gradient(w, z, output_gradients=tf.constant(u)).numpy()
    want = tf_gradient_by_differences(lambda v: np.real(np.sum(np.conj(u) * v * C)), Z)
    np.testing.assert_allclose(got, want, atol=1e-6)


def test_custom_gradient_grad_fn_is_written_in_tf_convention():
    c = tf.constant(C)

    @tf.custom_gradient
    def times_c(z):
        def grad_fn(upstream):
            return upstream * tf.math.conj(c)  # TF's rule for a holomorphic z * c
        return z * c, grad_fn

    z = tf.Variable(Z)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.math.real(times_c(z)) + tf.abs(z) ** 2)
    want = tf_gradient_by_differences(lambda v: np.sum(np.real(v * C) + np.abs(v) ** 2), Z)
    np.testing.assert_allclose(tape.gradient(y, z).numpy(), want, atol=1e-6)


def test_descent_step_lowers_a_complex_loss():
    z = tf.Variable(Z)
    opt = tf.keras.optimizers.SGD(learning_rate=0.01)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.abs(z - tf.constant(C)) ** 2)
    opt.apply_gradients([(tape.gradient(y, z), z)])
    assert np.sum(np.abs(z.numpy() - C) ** 2) < np.sum(np.abs(Z - C) ** 2)
    np.testing.assert_allclose(z.numpy(), Z - 0.01 * 2 * (Z - C), atol=1e-12)
