"""``list(x)`` of an array parameter: the gradient is an array of x's shape (it came back as the
rows' slot cotangents, a ``Grads`` object, not an array)."""

import numpy as np

import transpiler
from tests.fd import assert_close, numeric_grad


def written(x):
    l = list(x)
    l[0] = x[1] * 3.0
    return l[0] * l[2] + l[1] ** 2


def rows(m):
    r = list(m)
    return np.sum(r[0] * r[1]) + np.sum(r[1] ** 2)


def test_gradient_is_an_array_like_the_parameter():
    for f, x in ((written, np.array([1.0, 2.0, 3.0])), (rows, np.arange(6.0).reshape(2, 3) + 1)):
        g = transpiler.grad(f)(x)
        assert type(g) is np.ndarray and g.shape == x.shape
        assert_close(g, numeric_grad(f, x), 1e-6, 1e-7, what=f.__name__)
        v = np.ones_like(x)
        assert_close(transpiler.jvp(f, (x,), (v,))[1], np.sum(numeric_grad(f, x) * v), 1e-6, 1e-7, what="jvp")
        h = 1e-4
        fd_hv = (numeric_grad(f, x + h * v) - numeric_grad(f, x - h * v)) / (2 * h)
        assert_close(transpiler.hvp(f)(x, v), fd_hv, 1e-4, 1e-5, what=f"hvp {f.__name__}")
