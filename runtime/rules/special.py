"""Special functions as primitives: erf, erfc, lgamma, digamma, polygamma, i0, i1.

numpy has no vectorised erf; the values come from ``math.erf`` element by element (exact to
double precision, no scipy needed), the derivative is the closed form.
"""

import math

import numpy as np

from .forms import elementwise
from .registry import primitive

_TWO_OVER_SQRT_PI = 1.1283791670955126

_erf_elementwise = np.frompyfunc(math.erf, 1, 1)
_erfc_elementwise = np.frompyfunc(math.erfc, 1, 1)


def _float_dtype(x):
    dt = np.asarray(x).dtype
    return dt if dt.kind == "f" else np.dtype(np.float64)


@primitive
def erf(x):
    """The error function 2/sqrt(pi) * integral_0^x exp(-t^2) dt, elementwise; keeps x's float dtype."""
    out = np.asarray(_erf_elementwise(x), dtype=_float_dtype(x))
    return out[()] if out.ndim == 0 else out


@elementwise(erf)
def d_erf(ans, x):
    return _TWO_OVER_SQRT_PI * np.exp(-x * x)


@primitive
def erfc(x):
    """1 - erf(x), accurate for large x."""
    out = np.asarray(_erfc_elementwise(x), dtype=_float_dtype(x))
    return out[()] if out.ndim == 0 else out


@elementwise(erfc)
def d_erfc(ans, x):
    return -_TWO_OVER_SQRT_PI * np.exp(-x * x)


# --- digamma and polygamma (the derivatives of math.lgamma / math.gamma) --------------------------
# Recurrence psi_n(x) = psi_n(x + 1) - (-1)^n n! / x^(n+1) shifts x up to >= 10, where the
# asymptotic series is accurate to double precision.  Poles at 0, -1, -2, ... give inf / nan.

_BERNOULLI = (1.0 / 6, -1.0 / 30, 1.0 / 42, -1.0 / 30, 5.0 / 66, -691.0 / 2730, 7.0 / 6, -3617.0 / 510)


def _polygamma_scalar(n, x):
    n, x = int(n), float(x)
    if x <= 0 and x == math.floor(x):
        return math.nan
    shift = 0.0
    sign = -1.0 if n % 2 == 0 else 1.0          # (-1)^(n+1)
    fact = math.factorial(n)
    while x < 10.0:
        shift += sign * fact / x ** (n + 1)
        x += 1.0
    if n == 0:
        total = math.log(x) - 0.5 / x
        for k, b in enumerate(_BERNOULLI, 1):
            total -= b / (2 * k * x ** (2 * k))
        return total + shift
    total = math.factorial(n - 1) / x ** n + fact / (2.0 * x ** (n + 1))
    for k, b in enumerate(_BERNOULLI, 1):
        total += b * math.factorial(2 * k + n - 1) / (math.factorial(2 * k) * x ** (2 * k + n))
    return sign * total + shift


_polygamma_elementwise = np.frompyfunc(_polygamma_scalar, 2, 1)


@primitive
def polygamma(n, x):
    """The n-th derivative of digamma, elementwise (n = 0: digamma); Python floats stay floats."""
    if isinstance(x, (int, float)) and isinstance(n, int):
        return _polygamma_scalar(n, x)
    out = np.asarray(_polygamma_elementwise(n, x), dtype=_float_dtype(x))
    return out[()] if out.ndim == 0 else out


@elementwise(polygamma, broadcasting=False)
def d_polygamma(ans, n, x):
    return None, polygamma(n + 1, x)


@primitive
def digamma(x):
    """d/dx log(gamma(x)), elementwise; Python floats stay floats."""
    return polygamma.raw(0, x)


@elementwise(digamma)
def d_digamma(ans, x):
    return polygamma(1, x)


_lgamma_elementwise = np.frompyfunc(math.lgamma, 1, 1)


@primitive
def lgamma(x):
    """log |gamma(x)|, elementwise (``tf.math.lgamma``); keeps x's float dtype."""
    out = np.asarray(_lgamma_elementwise(x), dtype=_float_dtype(x))
    return out[()] if out.ndim == 0 else out


@elementwise(lgamma)
def d_lgamma(ans, x):
    return digamma(x)


# --- modified Bessel functions: np.i0 and i1 (its derivative) -------------------------------------
# I1(x) = sum_k (x/2)^(2k+1) / (k! (k+1)!), summed until the terms stop mattering.

def _i1_scalar(x):
    x = float(x)
    half = x / 2.0
    term = half
    total = term
    k = 0
    while abs(term) > 1e-17 * abs(total) or k < 2:
        k += 1
        term *= half * half / (k * (k + 1))
        total += term
    return total


_i1_elementwise = np.frompyfunc(_i1_scalar, 1, 1)


@primitive
def i1(x):
    """The modified Bessel function of the first kind of order 1, elementwise (I0' = I1)."""
    if isinstance(x, (int, float)):
        return _i1_scalar(x)
    out = np.asarray(_i1_elementwise(x), dtype=_float_dtype(x))
    return out[()] if out.ndim == 0 else out


# I1'(x) = I0(x) - I1(x) / x, which is 1/2 at x = 0
@elementwise(i1)
def d_i1(ans, x):
    return np.where(x == 0, 0.5, np.i0(x) - ans / np.where(x == 0, 1.0, x))


@elementwise(np.i0)
def d_i0(ans, x):
    return i1(x)
