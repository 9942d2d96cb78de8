"""Piecewise-smooth results are differentiated, not cut: frexp's mantissa, modf's fraction, divmod's
and fmod's remainders, ldexp, in both halves (numpy's on arrays, math's and the builtin's on floats).

``m, e = np.frexp(x); return m * x`` had gradient 0.75 at 1.5 (np.frexp counted as not
differentiable; the answer is 1.5: the mantissa is x * 2**-e between powers of two).
"""

import math

import numpy as np
import pytest

from tests import halves
from tests.fd import assert_close


def np_frexp(x):
    m, e = np.frexp(x)
    return np.sum(m * x * np.array([1.0, -2.0, 0.5]))


def np_frexp_exponent(x):
    m, e = np.frexp(x * x)          # m = x * x * 2**-e: the chain rule through the mantissa
    return np.sum(m * x)


def np_modf(x):
    frac, whole = np.modf(x * 1.7)
    return np.sum(frac * x + whole * np.sin(x))


def np_divmod(x, y):
    q, r = np.divmod(x, y)
    return np.sum(r * r + q * x)


def np_fmod(x, y):
    return np.sum(np.fmod(x, y) ** 2 * np.array([1.0, 2.0, 3.0]))


def np_ldexp(x):
    return np.sum(np.ldexp(x, np.array([1, -2, 3])) * x)


ARRAYS = np.array([1.5, -2.7, 0.3])
DIVISORS = np.array([0.7, -1.1, 0.4])


@pytest.mark.parametrize("f, args", [
    (np_frexp, [ARRAYS]), (np_frexp_exponent, [ARRAYS]), (np_modf, [ARRAYS]),
    (np_divmod, [ARRAYS, DIVISORS]), (np_fmod, [ARRAYS, DIVISORS]), (np_ldexp, [ARRAYS]),
], ids=lambda v: getattr(v, "__name__", ""))
def test_numpy_in_both_halves(f, args):
    halves.check(f, args, what=f.__name__)


def test_the_issue_example_at_one_and_a_half():
    def f(x):
        m, e = np.frexp(x)
        return m * x
    halves.check(f, [np.float64(1.5)], what="m * x")
    import transpiler
    assert transpiler.grad(f)(1.5) == pytest.approx(1.5)


def math_frexp(x):
    m, e = math.frexp(x)
    return m * x + e


def math_modf(x):
    frac, whole = math.modf(1.7 * x)
    return frac * x + whole * math.sin(x)


def builtin_divmod(x, y):
    q, r = divmod(x, y)
    return r * r + q * x


def math_fmod(x, y):
    return math.fmod(x, y) ** 2


def math_ldexp(x):
    return math.ldexp(x, -3) * x


@pytest.mark.parametrize("f, args", [
    (math_frexp, [1.5]), (math_frexp, [-0.3]), (math_modf, [2.3]), (math_modf, [-1.9]),
    (builtin_divmod, [2.5, 0.7]), (builtin_divmod, [-2.5, 0.7]), (math_fmod, [-2.5, 0.7]), (math_ldexp, [1.3]),
], ids=lambda v: getattr(v, "__name__", str(v)))
def test_scalars_in_the_transpiler(f, args):
    """The transpiler's scalar rules; on the tape math functions read a tensor as a float, as in TF."""
    import transpiler

    h = 1e-6
    for k in range(len(args)):
        def at(xk):
            new = list(args)
            new[k] = xk
            return f(*new)
        want = (at(args[k] + h) - at(args[k] - h)) / (2 * h)
        second = (at(args[k] + 1e-3) - 2 * at(args[k]) + at(args[k] - 1e-3)) / 1e-6
        assert_close(transpiler.grad(f, wrt=k)(*args), want, what=f"{f.__name__} reverse {k}")
        tangents = tuple(1.0 if j == k else 0.0 for j in range(len(args)))
        assert_close(transpiler.jvp(f, tuple(args), tangents)[1], want, what=f"{f.__name__} forward {k}")
        assert_close(transpiler.hvp(f, tuple(args), 1.0, wrt=k), second, 1e-4, 1e-4,
                     what=f"{f.__name__} second order {k}")
