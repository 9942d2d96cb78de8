"""Special functions as primitives: erf, erfc.

numpy has no vectorised erf; the values come from ``math.erf`` element by element (exact to
double precision, no scipy needed), the derivative is the closed form.
"""

import math

import numpy as np

from .registry import define, primitive

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


def erf_vjp(g, ans, x):
    return g * _TWO_OVER_SQRT_PI * np.exp(-x * x)


def erf_jvp(t, ans, x):
    return t * _TWO_OVER_SQRT_PI * np.exp(-x * x)


define(erf, vjp=(erf_vjp,), jvp=(erf_jvp,))


@primitive
def erfc(x):
    """1 - erf(x), accurate for large x."""
    out = np.asarray(_erfc_elementwise(x), dtype=_float_dtype(x))
    return out[()] if out.ndim == 0 else out


def erfc_vjp(g, ans, x):
    return -g * _TWO_OVER_SQRT_PI * np.exp(-x * x)


def erfc_jvp(t, ans, x):
    return -t * _TWO_OVER_SQRT_PI * np.exp(-x * x)


define(erfc, vjp=(erfc_vjp,), jvp=(erfc_jvp,))
