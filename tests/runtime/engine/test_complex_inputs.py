"""Elementwise rules on complex inputs, in both halves, against finite differences of numpy.

The rule specs draw real inputs only.  Here every unary and binary elementwise spec runs on
z = a + ib and the real loss sum(w1 * real(f(z)) + w2 * imag(f(z))) is differentiated with
respect to the real parts a and b (on the tape through ``tf.complex``, in the transpiler through
``a + 1j * b``).  The matrix cases do the same for reductions, products, linear algebra,
convolutions and FFTs.  Wrong before: sigmoid and softplus (a real-only stable form on complex
input), var/std/nanvar/nanstd and cov (no conjugate: the imaginary parts' gradients had the wrong
sign), convolve and correlate (np.correlate conjugates its second argument).
"""

import warnings

import numpy as np
import pytest

import runtime as tf
import transpiler
from tests.fd import assert_close
from tests.runtime.rules.rule_specs.elementwise import BINARY, UNARY

CASES = [(fn, 1) for fn, _ in UNARY] + [(item[0], 2) for item in BINARY]


def _name(fn):
    return getattr(fn, "__name__", str(fn))


def _inputs(nargs, side=1.0):
    """Real parts on one side of 0 (branches differ between the half planes: arccosh once did)."""
    rng = np.random.default_rng(nargs)
    return side * rng.uniform(0.3, 1.5, (nargs, 3)), rng.uniform(0.2, 1.2, (nargs, 3)), rng.standard_normal((2, 3))


def _loss(fn, parts, w):
    out = fn(*parts)
    return np.sum(w[0] * np.real(out) + w[1] * np.imag(out))


def _fd(fn, a, b, w, h=1e-6):
    def value(A, B):
        return float(_loss(fn, [A[k] + 1j * B[k] for k in range(len(A))], w))
    grads = []
    for which in (0, 1):
        g = np.zeros_like(a)
        for idx in np.ndindex(a.shape):
            e = np.zeros_like(a)
            e[idx] = h
            plus = (a + e, b) if which == 0 else (a, b + e)
            minus = (a - e, b) if which == 0 else (a, b - e)
            g[idx] = (value(*plus) - value(*minus)) / (2 * h)
        grads.append(g)
    return grads


def _complex_cases():
    for fn, nargs in CASES:
        for side in (1.0, -1.0):
            a, b, w = _inputs(nargs, side)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    if not np.isfinite(_loss(fn, [a[k] + 1j * b[k] for k in range(nargs)], w)):
                        continue
                except TypeError:       # numpy itself has no complex loop for it (cbrt, arctan2, ...)
                    continue
            yield pytest.param(fn, nargs, side, id=f"{_name(fn)}{'+' if side > 0 else '-'}")


COMPLEX_CASES = list(_complex_cases())


def test_enough_rules_take_complex_input():
    assert len(COMPLEX_CASES) >= 30


@pytest.mark.parametrize("fn, nargs, side", COMPLEX_CASES)
def test_tape(fn, nargs, side):
    a, b, w = _inputs(nargs, side)
    va, vb = tf.Variable(a), tf.Variable(b)
    with tf.GradientTape() as tape:
        y = _loss(fn, [tf.complex(va[k], vb[k]) for k in range(nargs)], w)
    got = tape.gradient(y, [va, vb])
    for g, want, part in zip(got, _fd(fn, a, b, w), ("real", "imag")):
        assert_close(np.zeros_like(a) if g is None else g.numpy(), want, 1e-4, 1e-5,
                     what=f"tape d/d{part} {_name(fn)}")


@pytest.mark.parametrize("fn, nargs, side", COMPLEX_CASES)
def test_transpiler(fn, nargs, side):
    a, b, w = _inputs(nargs, side)

    if nargs == 1:
        def loss(a, b):
            return _loss1(fn, a, b, w)
    else:
        def loss(a, b):
            return _loss2(fn, a, b, w)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = transpiler.grad(loss, wrt=(0, 1))(a, b)
    for g, want, part in zip(got, _fd(fn, a, b, w), ("real", "imag")):
        assert_close(g, want, 1e-4, 1e-5, what=f"transpiler d/d{part} {_name(fn)}")


@pytest.mark.parametrize("fn, nargs, side", COMPLEX_CASES)
def test_forward_mode_both_halves(fn, nargs, side):
    a, b, w = _inputs(nargs, side)
    rng = np.random.default_rng(9)
    ta, tb = rng.standard_normal(a.shape), rng.standard_normal(b.shape)
    ga, gb = _fd(fn, a, b, w)
    want = np.sum(ga * ta) + np.sum(gb * tb)
    va, vb = tf.constant(a), tf.constant(b)
    with tf.autodiff.ForwardAccumulator([va, vb], [tf.constant(ta), tf.constant(tb)]) as acc:
        y = _loss(fn, [tf.complex(va[k], vb[k]) for k in range(nargs)], w)
    assert_close(float(acc.jvp(y).numpy()), want, 1e-4, 1e-5, what=f"tape forward {_name(fn)}")
    loss = _loss1 if nargs == 1 else _loss2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, got = transpiler.jvp(lambda a, b: loss(fn, a, b, w), (a, b), (ta, tb))
    assert_close(got, want, 1e-4, 1e-5, what=f"transpiler forward {_name(fn)}")


def _loss1(fn, a, b, w):
    out = fn(a[0] + 1j * b[0])
    return np.sum(w[0] * np.real(out) + w[1] * np.imag(out))


def _loss2(fn, a, b, w):
    out = fn(a[0] + 1j * b[0], a[1] + 1j * b[1])
    return np.sum(w[0] * np.real(out) + w[1] * np.imag(out))


# --- reductions, products, linear algebra and convolutions on a complex 3x3 matrix --------------

def c_var(z):
    return np.var(z, axis=0)


def c_var_ddof(z):
    return np.var(z, axis=1, ddof=1)


def c_std(z):
    return np.std(z * z)


def c_nanvar(z):
    return np.nanvar(z, axis=0)


def c_nanstd(z):
    return np.nanstd(z)


def c_cov(z):
    return np.cov(z)


def c_convolve(z):
    return np.convolve(z[0], z[1])


def c_convolve_valid(z):
    return np.convolve(z[0], z[1, :2], "valid")


def c_correlate(z):
    return np.correlate(z[0], z[1], "full")


def c_correlate_same(z):
    return np.correlate(z[0] * 2.0, z[1, :2], "same")


def c_products(z):
    return np.prod(z, axis=1) + np.cumprod(z[0]) + np.trace(z @ z) + np.vdot(z[0], z[1])


def c_linalg(z):
    return np.linalg.det(z) + np.sum(np.linalg.inv(z) @ np.linalg.solve(z, z[:, 0]))


def c_shapes(z):
    return np.sum(np.kron(z[0], z[1])) + np.sum(np.cross(z[0], z[1]) * np.diff(z, axis=1)[:, 0])


def c_fft(z):
    return np.fft.ifft2(z) * np.fft.fft(z, axis=0)


def c_powers(z):
    return z ** (1.5 + 0.5j) + 2.0 ** z + np.sum(z ** 2) + np.linalg.matrix_power(z, 3)


MATRIX_CASES = [c_var, c_var_ddof, c_std, c_nanvar, c_nanstd, c_cov, c_convolve, c_convolve_valid,
                c_correlate, c_correlate_same, c_products, c_linalg, c_shapes, c_fft, c_powers]


def _matrix_inputs():
    rng = np.random.default_rng(7)
    return np.eye(3) * 2 + 0.3 * rng.standard_normal((3, 3)), 0.4 * rng.standard_normal((3, 3))


def _matrix_case(fn):
    """Inputs, weights, the FD gradients with respect to the real and imaginary parts, and the
    transpilable loss of a matrix case."""
    a, b = _matrix_inputs()
    w = np.random.default_rng(8).standard_normal((2,) + np.shape(fn(a + 1j * b)))
    ga, gb = _fd(fn, a[None], b[None], w)

    def loss(a, b):
        out = fn(a + 1j * b)
        return np.sum(w[0] * np.real(out) + w[1] * np.imag(out))
    return a, b, w, (ga[0], gb[0]), loss


@pytest.mark.parametrize("fn", MATRIX_CASES, ids=[f.__name__ for f in MATRIX_CASES])
def test_matrix_functions_on_the_tape(fn):
    a, b, w, want, _ = _matrix_case(fn)
    va, vb = tf.Variable(a), tf.Variable(b)
    with tf.GradientTape() as tape:
        y = _loss(fn, [tf.complex(va, vb)], w)
    for g, ref, part in zip(tape.gradient(y, [va, vb]), want, ("real", "imag")):
        assert_close(g.numpy(), ref, 1e-4, 1e-5, what=f"tape d/d{part} {fn.__name__}")


@pytest.mark.parametrize("fn", MATRIX_CASES, ids=[f.__name__ for f in MATRIX_CASES])
def test_matrix_functions_forward(fn):
    a, b, w, (ga, gb), loss = _matrix_case(fn)
    rng = np.random.default_rng(10)
    ta, tb = rng.standard_normal(a.shape), rng.standard_normal(b.shape)
    want = np.sum(ga * ta) + np.sum(gb * tb)
    va, vb = tf.constant(a), tf.constant(b)
    with tf.autodiff.ForwardAccumulator([va, vb], [tf.constant(ta), tf.constant(tb)]) as acc:
        y = _loss(fn, [tf.complex(va, vb)], w)
    assert_close(float(acc.jvp(y).numpy()), want, 1e-4, 1e-5, what=f"tape forward {fn.__name__}")
    assert_close(transpiler.jvp(loss, (a, b), (ta, tb))[1], want, 1e-4, 1e-5, what=f"transpiler forward {fn.__name__}")


def test_eigvalsh_of_a_complex_matrix_in_both_modes():
    """Forward mode once returned a wrong number here (the rules were for real matrices), then both
    modes refused.  The eigenvalues of z + z^H sum to its trace, 2 Re tr(z): d/da = 2 I, d/db = 0."""
    a, b = _matrix_inputs()

    def loss(a, b):
        z = a + 1j * b
        return np.sum(np.linalg.eigvalsh(z + np.conj(z.T)))
    n = a.shape[-1]
    ga, gb = transpiler.grad(loss, wrt=(0, 1))(a, b)
    assert_close(ga, 2 * np.eye(n), 1e-10, 1e-10, what="d/da")
    assert_close(gb, np.zeros((n, n)), 1e-10, 1e-10, what="d/db")
    ta, tb = np.arange(n * n).reshape(n, n) / 7.0, np.ones((n, n))
    assert_close(transpiler.jvp(loss, (a, b), (ta, tb))[1], 2 * np.trace(ta), 1e-10, 1e-10, what="tangent")


@pytest.mark.parametrize("fn", MATRIX_CASES, ids=[f.__name__ for f in MATRIX_CASES])
def test_matrix_functions_in_the_transpiler(fn):
    a, b, _, want, loss = _matrix_case(fn)
    for g, ref, part in zip(transpiler.grad(loss, wrt=(0, 1))(a, b), want, ("real", "imag")):
        assert_close(g, ref, 1e-4, 1e-5, what=f"transpiler d/d{part} {fn.__name__}")
