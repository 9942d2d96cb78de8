"""tf.cosh, tf.sinh and the other top-level inverse/hyperbolic names, and tf.math's special functions
and zero-safe divisions (runtime/ops/math_special.py): values against the math module, gradients against
central finite differences (reverse and forward mode, second order through nested tapes)."""

import math

import numpy as np
import pytest

import runtime as tf
from tests.fd import assert_close, numeric_grad, numeric_jvp

X = np.array([0.3, 1.7, -0.8, 2.5])
POS = np.array([0.4, 1.3, 2.5, 3.7])
BIG = np.array([1.2, 1.5, 2.5, 3.7])


def _i(n, x):
    """Modified Bessel function I_n by its series (independent of the runtime's)."""
    return sum((x / 2) ** (2 * k + n) / (math.factorial(k) * math.factorial(k + n)) for k in range(40))


UNARY = {
    "tf.cosh": (tf.cosh, math.cosh, X), "tf.sinh": (tf.sinh, math.sinh, X), "tf.tanh": (tf.tanh, math.tanh, X),
    "tf.asinh": (tf.asinh, math.asinh, X), "tf.acosh": (tf.acosh, math.acosh, BIG),
    "tf.atanh": (tf.atanh, math.atanh, X / 3), "tf.asin": (tf.asin, math.asin, X / 3),
    "tf.acos": (tf.acos, math.acos, X / 3), "tf.atan": (tf.atan, math.atan, X),
    "tf.math.lgamma": (tf.math.lgamma, math.lgamma, POS),
    "tf.math.bessel_i0": (tf.math.bessel_i0, lambda v: _i(0, v), X),
    "tf.math.bessel_i1": (tf.math.bessel_i1, lambda v: _i(1, v), X),
    "tf.math.bessel_i0e": (tf.math.bessel_i0e, lambda v: math.exp(-abs(v)) * _i(0, v), X),
    "tf.math.bessel_i1e": (tf.math.bessel_i1e, lambda v: math.exp(-abs(v)) * _i(1, v), X),
    "tf.math.reciprocal_no_nan": (tf.math.reciprocal_no_nan, lambda v: 0.0 if v == 0 else 1 / v, X),
}


def _ref(scalar):
    return lambda a: np.array([scalar(float(v)) for v in np.ravel(a)]).reshape(np.shape(a))


@pytest.mark.parametrize("name", UNARY)
def test_values_gradients_and_second_order(name):
    op, scalar, x0 = UNARY[name]
    f = _ref(scalar)
    assert_close(op(tf.constant(x0)).numpy(), f(x0), what=name)
    x = tf.constant(x0)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(op(x))
        g = inner.gradient(y, x)
        gs = tf.reduce_sum(g)
    assert_close(g.numpy(), numeric_grad(lambda a: np.sum(f(a)), x0), what=name)
    h = outer.gradient(gs, x).numpy()        # the Hessian is diagonal: its diagonal
    eps = 1e-4
    want = (numeric_grad(lambda a: np.sum(f(a)), x0 + eps) - numeric_grad(lambda a: np.sum(f(a)), x0 - eps)) / (2 * eps)
    assert_close(h, want, rtol=1e-4, atol=1e-4, what=name)
    t0 = np.linspace(0.5, 1.5, x0.size)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(t0)) as acc:
        y = op(x)
    assert_close(acc.jvp(y).numpy(), numeric_jvp(f, [x0], [t0]), what=name)


def test_digamma_and_polygamma_are_derivatives_of_lgamma():
    x = tf.constant(POS)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.math.digamma(x))
    assert_close(tf.math.digamma(x).numpy(), numeric_grad(lambda a: np.sum(_ref(math.lgamma)(a)), POS))
    assert_close(tape.gradient(y, x).numpy(), tf.math.polygamma(1.0, x).numpy())
    assert_close(tf.math.polygamma(1.0, x).numpy(),
                 numeric_grad(lambda a: np.sum(_ref(math.lgamma)(a + 1e-4) - _ref(math.lgamma)(a - 1e-4)) / 2e-4,
                              POS, 1e-4), rtol=1e-3, atol=1e-4)


ZERO_SAFE = {
    "xdivy": (tf.math.xdivy, lambda x, y: 0.0 if x == 0 else x / y),
    "xlog1py": (tf.math.xlog1py, lambda x, y: 0.0 if x == 0 else x * math.log1p(y)),
}


@pytest.mark.parametrize("name", ZERO_SAFE)
def test_zero_safe_binary_ops(name):
    op, scalar = ZERO_SAFE[name]
    x0, y0 = np.array([0.0, 0.3, 1.7, -0.8]), np.array([0.0, 0.5, 0.4, 2.0])
    f = lambda a, b: np.array([scalar(u, v) for u, v in zip(a, b)])  # noqa: E731
    x, y = tf.constant(x0), tf.constant(y0)
    with tf.GradientTape() as tape:
        tape.watch([x, y])
        z = op(x, y)
    assert_close(z.numpy(), f(x0, y0))
    gx, gy = tape.gradient(z, [x, y])
    ok = x0 != 0     # at x == 0 TF's gradients are 0 (the function is 0 on that line, not smooth across it)
    assert_close(gx.numpy()[ok], numeric_grad(lambda a: np.sum(f(a, y0)), x0)[ok])
    assert_close(gy.numpy(), numeric_grad(lambda b: np.sum(f(x0, b)), y0))
    assert gx.numpy()[0] == 0.0 and gy.numpy()[0] == 0.0


def test_complex_parts():
    z = tf.constant(np.array([1.0 + 2.0j, -0.5 - 1.0j]))
    assert tf.math.real(z).numpy().tolist() == [1.0, -0.5]
    assert tf.math.imag(z).numpy().tolist() == [2.0, -1.0]
    assert tf.math.conj(z).numpy().tolist() == [1.0 - 2.0j, -0.5 + 1.0j]
    assert_close(tf.math.angle(z).numpy(), np.angle(np.array([1.0 + 2.0j, -0.5 - 1.0j])))
