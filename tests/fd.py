"""Central finite differences in float64: the reference every derivative is checked against."""

import numpy as np

EPS = 1e-6


def numeric_grad(f, x, eps=EPS):
    """Gradient of a scalar function ``f`` at array ``x`` by central differences."""
    x = np.array(x, dtype=np.float64, order="C")      # C order: reshape(-1) below is a view
    grad = np.zeros_like(x)
    flat = x.reshape(-1)
    gflat = grad.reshape(-1)
    for i in range(flat.size):
        old = flat[i]
        flat[i] = old + eps
        fp = float(np.sum(f(x.copy())))
        flat[i] = old - eps
        fm = float(np.sum(f(x.copy())))
        flat[i] = old
        gflat[i] = (fp - fm) / (2 * eps)
    return grad


def richardson_derivative(f, x, h=EPS):
    """Derivative of a scalar function of a scalar by Richardson-extrapolated central differences
    (error O(h^4)): for programs whose third derivative is too large for ``numeric_grad``."""
    def central(e):
        return (float(f(x + e)) - float(f(x - e))) / (2 * e)
    return (4 * central(h / 2) - central(h)) / 3


def numeric_vjp(f, args, argnum, g, eps=EPS):
    """``g . d f(*args) / d args[argnum]`` by central differences (any output shape)."""
    args = [np.array(a, dtype=np.float64) for a in args]

    def scalar(xi):
        new = list(args)
        new[argnum] = xi
        return np.sum(np.asarray(f(*new), dtype=np.float64) * g)

    return numeric_grad(scalar, args[argnum], eps)


def numeric_jvp(f, args, tangents, eps=EPS):
    """Directional derivative of ``f`` at ``args`` along ``tangents`` by central differences."""
    plus = [np.asarray(a, dtype=np.float64) + eps * np.asarray(t, dtype=np.float64) for a, t in zip(args, tangents)]
    minus = [np.asarray(a, dtype=np.float64) - eps * np.asarray(t, dtype=np.float64) for a, t in zip(args, tangents)]
    return (np.asarray(f(*plus), dtype=np.float64) - np.asarray(f(*minus), dtype=np.float64)) / (2 * eps)


def assert_close(actual, expected, rtol=1e-5, atol=1e-6, what=""):
    """Compare arrays (shapes must match exactly) with a message naming ``what``."""
    kind = np.complex128 if np.iscomplexobj(actual) or np.iscomplexobj(expected) else np.float64
    actual = np.asarray(actual, dtype=kind)       # complex values compare both parts (a float64
    expected = np.asarray(expected, dtype=kind)   # cast dropped the imaginary part, unchecked)
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} != expected {expected.shape}"
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol, err_msg=what)
