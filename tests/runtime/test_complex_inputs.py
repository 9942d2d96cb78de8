"""Elementwise rules on complex inputs, in both halves, against finite differences of numpy.

The rule specs draw real inputs only.  Here every unary and binary elementwise spec runs on
z = a + ib and the real loss sum(w1 * real(f(z)) + w2 * imag(f(z))) is differentiated with
respect to the real parts a and b (on the tape through ``tf.complex``, in the transpiler through
``a + 1j * b``).  sigmoid and softplus once computed a real-only stable form on complex input,
so their gradients disagreed with the function they returned.
"""

import warnings

import numpy as np
import pytest

import runtime as tf
import transpiler
from tests.fd import assert_close
from tests.runtime.rule_specs.elementwise import BINARY, UNARY

CASES = [(fn, 1) for fn, _ in UNARY] + [(item[0], 2) for item in BINARY]


def _name(fn):
    return getattr(fn, "__name__", str(fn))


def _inputs(nargs):
    rng = np.random.default_rng(nargs)
    return rng.uniform(0.3, 1.5, (nargs, 3)), rng.uniform(0.2, 1.2, (nargs, 3)), rng.standard_normal((2, 3))


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
        a, b, w = _inputs(nargs)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                if not np.isfinite(_loss(fn, [a[k] + 1j * b[k] for k in range(nargs)], w)):
                    continue
            except TypeError:       # numpy itself has no complex loop for it (cbrt, arctan2, ...)
                continue
        yield pytest.param(fn, nargs, id=_name(fn))


COMPLEX_CASES = list(_complex_cases())


def test_enough_rules_take_complex_input():
    assert len(COMPLEX_CASES) >= 30


@pytest.mark.parametrize("fn, nargs", COMPLEX_CASES)
def test_tape(fn, nargs):
    a, b, w = _inputs(nargs)
    va, vb = tf.Variable(a), tf.Variable(b)
    with tf.GradientTape() as tape:
        y = _loss(fn, [tf.complex(va[k], vb[k]) for k in range(nargs)], w)
    got = tape.gradient(y, [va, vb])
    for g, want, part in zip(got, _fd(fn, a, b, w), ("real", "imag")):
        assert_close(np.zeros_like(a) if g is None else g.numpy(), want, 1e-4, 1e-5,
                     what=f"tape d/d{part} {_name(fn)}")


@pytest.mark.parametrize("fn, nargs", COMPLEX_CASES)
def test_transpiler(fn, nargs):
    a, b, w = _inputs(nargs)

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


def _loss1(fn, a, b, w):
    out = fn(a[0] + 1j * b[0])
    return np.sum(w[0] * np.real(out) + w[1] * np.imag(out))


def _loss2(fn, a, b, w):
    out = fn(a[0] + 1j * b[0], a[1] + 1j * b[1])
    return np.sum(w[0] * np.real(out) + w[1] * np.imag(out))
