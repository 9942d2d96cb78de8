"""The generated code itself: Python must not warn about it when it is compiled.

Rules are inlined with their arguments substituted; ``axis is None`` with ``axis=-1`` became
``-1 is None``, which Python flags with a SyntaxWarning the user saw on every new variant.
"""

import warnings

import numpy as np
import pytest

import transpiler
from tests.fd import assert_close, numeric_grad

W = np.array([0.5, -1.0, 2.0, 0.3])


def sort_default_axis(x):
    return np.sum(np.sort(x) * W)


def cumsum_axis(x):
    return np.sum(np.cumsum(x * x, axis=0) * W)


def sort_then_take(x):
    return np.sum(np.take(np.sort(x, axis=-1), [0, 2]) * x[:2])


@pytest.mark.parametrize("f", [sort_default_axis, cumsum_axis, sort_then_take])
def test_no_warning_when_compiling_the_gradient(f):
    x = np.array([0.3, -1.2, 2.5, 0.9])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        g = transpiler.grad(f)(x)
        hv = transpiler.hvp(f)(x, np.ones(4))
    syntax = [w for w in caught if issubclass(w.category, SyntaxWarning)]
    assert not syntax, [str(w.message) for w in syntax]
    assert_close(g, numeric_grad(f, x), 1e-6, 1e-7, what=f.__name__)
    h = 1e-4
    v = np.ones(4)
    fd_hv = [(f(x + h * u + h * v) - f(x + h * u - h * v) - f(x - h * u + h * v) + f(x - h * u - h * v))
             / (4 * h * h) for u in np.eye(4)]
    assert_close(hv, np.array(fd_hv), 1e-4, 1e-5, what=f"hvp {f.__name__}")


def _sorted_real_part(z):
    return np.sort(np.real(z))


def test_a_callee_calling_np_sort_is_not_a_sort_method():
    """``np.sort(v)`` in a callee once read as ``.sort()`` on the module ``np``: a false refusal."""
    def loss(a, b):
        return np.sum(_sorted_real_part(a + 1j * b) * W[:3])
    a, b = np.array([0.3, -1.0, 2.0]), np.ones(3)
    ga, gb = transpiler.grad(loss, wrt=(0, 1))(a, b)
    assert_close(ga, numeric_grad(lambda y: loss(y, b), a), 1e-6, 1e-7, what="d/da")
    assert_close(gb, np.zeros(3), 0, 0, what="d/db")
