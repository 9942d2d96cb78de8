"""Writes into an array next to reads of its slices.  ``y[1:] = y[:-1] * 2.0`` (a stencil) reads a
view of y only to compute a new array, so it is exact; a view that outlives its statement (named,
stored in a list, passed to a function or a view-returning numpy call) makes a later write
through y ambiguous in Python's sense, and is refused."""

import numpy as np
import pytest

from tests.fd import assert_close, numeric_grad
from transpiler import TranspileError, grad, hvp, jvp

X = np.array([0.4, -1.3, 0.8, 2.1])


def stencil(x):
    y = x * 1.0
    y[1:] = y[:-1] * 2.0 + np.sin(y[1:])
    return np.sum(y ** 2)


def copy_then_slice_write(x):
    y = x.copy()
    y[1:] = y[1:] * 2.0
    return np.sum(y ** 3)


def repeated_smoothing(x):
    y = x * 1.0
    for _ in range(3):
        y[1:-1] = 0.5 * y[1:-1] + 0.25 * (y[:-2] + y[2:])
    return np.sum(y * np.cos(y))


def reduction_of_a_slice_then_write(x):
    y = x * 1.0
    s = np.sum(y[1:] ** 2)
    y[0] = s * x[1]
    return np.sum(y ** 2) + s


@pytest.mark.parametrize("f", [stencil, copy_then_slice_write, repeated_smoothing, reduction_of_a_slice_then_write],
                         ids=lambda f: f.__name__)
def test_slices_read_to_compute_a_write(f):
    want = numeric_grad(f, X)
    assert_close(grad(f)(X), want, what=f"reverse {f.__name__}")
    t = np.array([0.3, 1.0, -0.6, 0.2])
    assert_close(jvp(f, (X,), (t,))[1], want @ t, what=f"forward {f.__name__}")
    eps = 1e-5
    g = grad(f)
    assert_close(hvp(f, X, t), (np.asarray(g(X + eps * t)) - np.asarray(g(X - eps * t))) / (2 * eps),
                 rtol=1e-4, atol=1e-5, what=f"hvp {f.__name__}")


def named_view(x):
    y = x * 1.0
    v = y[1:]
    y[1] = 5.0 * x[0]
    return np.sum(v ** 2)


def view_kept_in_a_list(x):
    y = x * 1.0
    kept = [y[1:]]
    y[1] = 5.0 * x[0]
    return np.sum(kept[0] ** 2)


def view_through_asarray(x):
    y = x * 1.0
    z = np.asarray(y[1:])
    y[1] = 5.0 * x[0]
    return np.sum(z ** 2)


def view_through_reshape(x):
    y = x * 1.0
    z = y[:2].reshape(2, 1)
    y[0] = 3.0 * x[2]
    return np.sum(z ** 2)


@pytest.mark.parametrize("f", [named_view, view_kept_in_a_list, view_through_asarray, view_through_reshape],
                         ids=lambda f: f.__name__)
def test_a_view_that_outlives_its_statement_is_refused(f):
    with pytest.raises(TranspileError, match="shares its array"):
        grad(f)(X)
