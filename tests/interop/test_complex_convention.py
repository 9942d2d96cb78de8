"""transpiler's complex_convention="tf": complex gradients as TensorFlow and runtime's GradientTape
return them (d/dRe + i d/dIm), the conjugate of the default (autograd's and JAX's d/dRe - i d/dIm).

Checked against finite differences of the real and imaginary parts and against the tape, for grad,
value_and_grad and vjp (whose complex cotangent is read in the same convention)."""

import numpy as np
import pytest

import runtime as tf
import transpiler

Z = np.array([1.0 + 2.0j, 0.5 - 1.0j, -0.3 + 0.2j])
W = np.array([1.0, -2.0, 0.5])


def loss(z):
    return np.sum(np.abs(z * z) * W + np.real(np.exp(z)) * 3.0)


def complex_out(z):
    return np.sin(z) * W


def _fd(f, z, h=1e-6):
    """(d/dRe, d/dIm) of a real f by central differences."""
    re, im = np.zeros(z.shape), np.zeros(z.shape)
    for k in range(z.size):
        e = np.zeros(z.shape)
        e[k] = h
        re[k] = (f(z + e) - f(z - e)) / (2 * h)
        im[k] = (f(z + 1j * e) - f(z - 1j * e)) / (2 * h)
    return re, im


def _tape_gradient(f, z, output_gradients=None):
    v = tf.Variable(z)
    with tf.GradientTape() as tape:
        y = f(v)
    return tape.gradient(y, v, output_gradients=output_gradients).numpy()


def test_grad_in_each_convention():
    re, im = _fd(loss, Z)
    np.testing.assert_allclose(transpiler.grad(loss)(Z), re - 1j * im, rtol=1e-6, atol=1e-6)
    got = transpiler.grad(loss, complex_convention="tf")(Z)
    np.testing.assert_allclose(got, re + 1j * im, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(got, _tape_gradient(loss, Z), rtol=1e-10, atol=1e-10)
    value, g = transpiler.value_and_grad(loss, complex_convention="tf")(Z)
    assert value == pytest.approx(loss(Z))
    np.testing.assert_allclose(g, got, rtol=1e-12, atol=1e-12)


def test_vjp_reads_the_cotangent_in_the_same_convention():
    ct = np.array([0.3 - 0.7j, 1.0 + 0.5j, -0.2 + 0.1j])
    value, pullback = transpiler.vjp(complex_out, Z, complex_convention="tf")
    got = pullback(ct)
    np.testing.assert_allclose(got, _tape_gradient(complex_out, Z, output_gradients=tf.constant(ct)),
                               rtol=1e-10, atol=1e-10)
    # the loss a TF cotangent ct stands for: Re(sum(conj(ct) * f(z)))
    re, im = _fd(lambda z: np.real(np.sum(np.conj(ct) * complex_out(z))), Z)
    np.testing.assert_allclose(got, re + 1j * im, rtol=1e-6, atol=1e-6)


def test_real_arguments_and_unknown_conventions():
    x = np.array([0.5, -1.0])
    assert not np.iscomplexobj(transpiler.grad(lambda x: np.sum(np.abs(x * (1 + 1j)) ** 2),
                                               complex_convention="tf")(x))
    with pytest.raises(ValueError, match="complex_convention='jax'"):
        transpiler.grad(loss, complex_convention="jax")
