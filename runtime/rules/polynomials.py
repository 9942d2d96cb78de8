"""Rules for polynomials, convolutions and interpolation: polyval, vander, convolve, correlate,
interp (with respect to x and fp; the sample points xp are refused).  A real operand of a complex
product gets the real part of its cotangent (``unbroadcast``)."""

import numpy as np

from .registry import define
from .support import scatter_add, shape_of, unbroadcast


# polyval(p, x) = sum_k p[k] x^(n-1-k)
def polyval_vjp_p(g, ans, p, x):
    n = shape_of(p)[0]
    powers = np.power(np.expand_dims(x, -1), np.arange(n - 1, -1, -1.0))
    h = np.sum(np.reshape(g, np.shape(x) + (1,)) * powers, axis=tuple(range(np.ndim(x))))
    return unbroadcast(np.reshape(h, shape_of(p)), p)


def polyval_vjp_x(g, ans, p, x):
    n = shape_of(p)[0]
    return unbroadcast(g * np.polyval(p[:-1] * np.arange(n - 1, 0, -1.0), x), x) if n > 1 else 0.0 * x


def polyval_jvp_p(t, ans, p, x):
    return np.polyval(t, x)


def polyval_jvp_x(t, ans, p, x):
    n = shape_of(p)[0]
    return t * np.polyval(p[:-1] * np.arange(n - 1, 0, -1.0), x) if n > 1 else 0.0 * t


define(np.polyval, vjp=(polyval_vjp_p, polyval_vjp_x), jvp=(polyval_jvp_p, polyval_jvp_x))


# vander(x, N)[i, j] = x_i ** (N - 1 - j)  (increasing: x_i ** j)
def vander_exponents(n, increasing):
    return np.arange(n, dtype=float) if increasing else np.arange(n - 1, -1, -1.0)


def vander_vjp(g, ans, x, N=None, increasing=False):
    e = vander_exponents(shape_of(ans)[1], increasing)
    return np.sum(g * e * np.power(np.expand_dims(x, -1), np.maximum(e - 1, 0)), axis=-1)


def vander_jvp(t, ans, x, N=None, increasing=False):
    e = vander_exponents(shape_of(ans)[1], increasing)
    return np.expand_dims(t, -1) * e * np.power(np.expand_dims(x, -1), np.maximum(e - 1, 0))


define(np.vander, vjp=(vander_vjp,), jvp=(vander_jvp,))


# convolve / correlate of 1-d arrays: pad the cotangent back to the full result, then
# correlate it with the other operand ('valid' mode gives exactly the operand's length).
# np.correlate conjugates its second argument: convolve is bilinear, so its rules undo that
# with a conj; correlate is conjugate-linear in v, so v's cotangent is a conjugated one.
def full_cotangent(g, n, m, mode, before_same):
    """g of a 'full' / 'same' / 'valid' result (operands of lengths n, m) padded to full length."""
    full = n + m - 1
    size = shape_of(g)[0]
    before = {"full": 0, "same": before_same, "valid": min(n, m) - 1}[mode]
    return np.pad(g, (before, full - size - before))


def convolve_vjp_a(g, ans, a, v, mode="full"):
    n, m = shape_of(a)[0], shape_of(v)[0]
    h = np.correlate(full_cotangent(g, n, m, mode, (m - 1) // 2 if n >= m else (n - 1) // 2), np.conj(v), "valid")
    return unbroadcast(h, a)


def convolve_vjp_v(g, ans, a, v, mode="full"):
    n, m = shape_of(a)[0], shape_of(v)[0]
    h = np.correlate(full_cotangent(g, n, m, mode, (m - 1) // 2 if n >= m else (n - 1) // 2), np.conj(a), "valid")
    return unbroadcast(h, v)


def convolve_jvp_a(t, ans, a, v, mode="full"):
    return np.convolve(t, v, mode)


def convolve_jvp_v(t, ans, a, v, mode="full"):
    return np.convolve(a, t, mode)


define(np.convolve, vjp=(convolve_vjp_a, convolve_vjp_v), jvp=(convolve_jvp_a, convolve_jvp_v))


# correlate(a, v) is convolve(a, v[::-1]) at full length (real inputs); 'same' centres differently
def correlate_before_same(n, m):
    excess = m - 1 if n >= m else n - 1
    return excess // 2 if n >= m else (excess + 1) // 2


def correlate_vjp_a(g, ans, a, v, mode="valid"):
    n, m = shape_of(a)[0], shape_of(v)[0]
    return unbroadcast(np.correlate(full_cotangent(g, n, m, mode, correlate_before_same(n, m)), v[::-1], "valid"), a)


def correlate_vjp_v(g, ans, a, v, mode="valid"):
    n, m = shape_of(a)[0], shape_of(v)[0]
    h = np.correlate(np.conj(full_cotangent(g, n, m, mode, correlate_before_same(n, m))), a, "valid")[::-1]
    return unbroadcast(h, v)


def correlate_jvp_a(t, ans, a, v, mode="valid"):
    return np.correlate(t, v, mode)


def correlate_jvp_v(t, ans, a, v, mode="valid"):
    return np.correlate(a, t, mode)


define(np.correlate, vjp=(correlate_vjp_a, correlate_vjp_v), jvp=(correlate_jvp_a, correlate_jvp_v))


# interp(x, xp, fp): piecewise linear; d/dx = the slope of the segment (0 outside [xp0, xpn]),
# d/dfp = the two interpolation weights.  The sample points xp get no gradient.
def interp_segment(x, xp):
    """(left index, weight of the right point) of each x's segment, clamped to the ends."""
    i = np.clip(np.searchsorted(xp, x, side="right") - 1, 0, shape_of(xp)[0] - 2)
    w = (x - xp[i]) / (xp[i + 1] - xp[i])
    return i, np.clip(w, 0.0, 1.0)


def interp_defaults(left, right, period):
    if left is not None or right is not None or period is not None:
        raise NotImplementedError("np.interp derivatives support the default left=, right= and period= only")


def interp_vjp_x(g, ans, x, xp, fp, left=None, right=None, period=None):
    interp_defaults(left, right, period)
    i, w = interp_segment(x, xp)
    inside = np.logical_and(x >= xp[0], x <= xp[-1])
    return unbroadcast(g * np.where(inside, (fp[i + 1] - fp[i]) / (xp[i + 1] - xp[i]), 0.0), x)


def interp_vjp_fp(g, ans, x, xp, fp, left=None, right=None, period=None):
    interp_defaults(left, right, period)
    i, w = interp_segment(np.ravel(x), xp)
    gr = np.ravel(g) * np.ones(np.shape(np.ravel(x)))
    return scatter_add(gr * (1.0 - w), fp, i) + scatter_add(gr * w, fp, i + 1)


def interp_jvp_x(t, ans, x, xp, fp, left=None, right=None, period=None):
    i, w = interp_segment(x, xp)
    inside = np.logical_and(x >= xp[0], x <= xp[-1])
    return t * np.where(inside, (fp[i + 1] - fp[i]) / (xp[i + 1] - xp[i]), 0.0)


def interp_jvp_fp(t, ans, x, xp, fp, left=None, right=None, period=None):
    return np.interp(x, xp, t)


define(np.interp, vjp=(interp_vjp_x, None, interp_vjp_fp), jvp=(interp_jvp_x, None, interp_jvp_fp))


# polynomial arithmetic on coefficient arrays (highest power first)
def polymul_vjp_a1(g, ans, a1, a2):
    return convolve_vjp_a(g, ans, a1, a2)


def polymul_vjp_a2(g, ans, a1, a2):
    return convolve_vjp_v(g, ans, a1, a2)


# np.polymul strips leading zeros (a zero tangent would shrink to one coefficient): the
# tangent is the full convolution, cut to the result's length
def polymul_jvp_a1(t, ans, a1, a2):
    full = np.convolve(t, a2)
    return full[shape_of(full)[0] - shape_of(ans)[0]:]


def polymul_jvp_a2(t, ans, a1, a2):
    full = np.convolve(a1, t)
    return full[shape_of(full)[0] - shape_of(ans)[0]:]


define(np.polymul, vjp=(polymul_vjp_a1, polymul_vjp_a2), jvp=(polymul_jvp_a1, polymul_jvp_a2))


# polyadd / polysub pad the shorter operand with leading zeros
def tail(g, a):
    return g[shape_of(g)[0] - shape_of(a)[0]:]


def polyadd_vjp_a1(g, ans, a1, a2):
    return unbroadcast(tail(g, a1), a1)


def polyadd_vjp_a2(g, ans, a1, a2):
    return unbroadcast(tail(g, a2), a2)


def polyadd_jvp_a1(t, ans, a1, a2):
    return np.polyadd(t, np.zeros(shape_of(a2)))


def polyadd_jvp_a2(t, ans, a1, a2):
    return np.polyadd(np.zeros(shape_of(a1)), t)


define(np.polyadd, vjp=(polyadd_vjp_a1, polyadd_vjp_a2), jvp=(polyadd_jvp_a1, polyadd_jvp_a2))


def polysub_vjp_a2(g, ans, a1, a2):
    return -unbroadcast(tail(g, a2), a2)


def polysub_jvp_a1(t, ans, a1, a2):
    return np.polysub(t, np.zeros(shape_of(a2)))


def polysub_jvp_a2(t, ans, a1, a2):
    return np.polysub(np.zeros(shape_of(a1)), t)


define(np.polysub, vjp=(polyadd_vjp_a1, polysub_vjp_a2), jvp=(polysub_jvp_a1, polysub_jvp_a2))


# polyder(p, m) and polyint(p, m, k) (1-d coefficients): linear maps of p
def polyder_vjp(g, ans, p, m=1):
    for i in range(m):
        n = shape_of(g)[0] + 1
        g = np.pad(g * np.arange(n - 1, 0, -1.0), (0, 1))
    return g


def polyder_jvp(t, ans, p, m=1):
    return np.polyder(t, m)


define(np.polyder, vjp=(polyder_vjp,), jvp=(polyder_jvp,))


def polyint_vjp(g, ans, p, m=1, k=None):
    for i in range(m):
        n = shape_of(g)[0] - 1
        g = g[:-1] / np.arange(n, 0, -1.0)
    return g


def polyint_jvp(t, ans, p, m=1, k=None):
    return np.polyint(t, m)


define(np.polyint, vjp=(polyint_vjp,), jvp=(polyint_jvp,))
