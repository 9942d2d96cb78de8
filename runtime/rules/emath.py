"""Rules for ``np.emath`` (numpy.lib.scimath): sqrt, log, log2, log10, logn, power, arccos,
arcsin, arctanh, which return complex results outside their real domains.

The derivatives are the holomorphic ones (see ``complexes`` for the convention); a real
input receives the real part of its cotangent (``unbroadcast``), so real parameters get real
gradients also where the result is complex.
"""

import numpy as np

from .forms import jvp_like
from .registry import define
from .support import unbroadcast

emath = np.emath


def sqrt_vjp(g, ans, x):
    return unbroadcast(g / (2.0 * ans), x)


def sqrt_jvp(t, ans, x):
    return t / (2.0 * ans)


define(emath.sqrt, vjp=(sqrt_vjp,), jvp=(sqrt_jvp,))


def log_vjp(g, ans, x):
    return unbroadcast(g / x, x)


def log_jvp(t, ans, x):
    return t / x


define(emath.log, vjp=(log_vjp,), jvp=(log_jvp,))


def log2_vjp(g, ans, x):
    return unbroadcast(g / (x * 0.6931471805599453), x)


def log2_jvp(t, ans, x):
    return t / (x * 0.6931471805599453)


define(emath.log2, vjp=(log2_vjp,), jvp=(log2_jvp,))


def log10_vjp(g, ans, x):
    return unbroadcast(g / (x * 2.302585092994046), x)


def log10_jvp(t, ans, x):
    return t / (x * 2.302585092994046)


define(emath.log10, vjp=(log10_vjp,), jvp=(log10_jvp,))


# logn(n, x) = log(x) / log(n)
def logn_vjp_n(g, ans, n, x):
    return unbroadcast(-g * ans / (n * emath.log(n)), n)


def logn_vjp_x(g, ans, n, x):
    return unbroadcast(g / (x * emath.log(n)), x)


define(emath.logn, vjp=(logn_vjp_n, logn_vjp_x), jvp=jvp_like(logn_vjp_n, logn_vjp_x))


# power(x, p): d/dp is 0 where x == 0 (as for np.power)
def power_vjp_x(g, ans, x, p):
    return unbroadcast(g * p * emath.power(x, np.where(p, p - 1, 1)), x)


def power_vjp_p(g, ans, x, p):
    return unbroadcast(g * ans * emath.log(np.where(x == 0, 1, x)), p)


define(emath.power, vjp=(power_vjp_x, power_vjp_p), jvp=jvp_like(power_vjp_x, power_vjp_p))


def arcsin_vjp(g, ans, x):
    return unbroadcast(g / emath.sqrt(1.0 - x * x), x)


def arcsin_jvp(t, ans, x):
    return t / emath.sqrt(1.0 - x * x)


define(emath.arcsin, vjp=(arcsin_vjp,), jvp=(arcsin_jvp,))


def arccos_vjp(g, ans, x):
    return unbroadcast(-g / emath.sqrt(1.0 - x * x), x)


def arccos_jvp(t, ans, x):
    return -t / emath.sqrt(1.0 - x * x)


define(emath.arccos, vjp=(arccos_vjp,), jvp=(arccos_jvp,))


def arctanh_vjp(g, ans, x):
    return unbroadcast(g / (1.0 - x * x), x)


def arctanh_jvp(t, ans, x):
    return t / (1.0 - x * x)


define(emath.arctanh, vjp=(arctanh_vjp,), jvp=(arctanh_jvp,))
