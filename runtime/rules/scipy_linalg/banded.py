"""Rules for ``scipy.linalg.solve_banded((l, u), ab, b)``: ``ab`` holds the band of A by diagonals,
``ab[u + i - j, j] == A[i, j]``.  The rules stay in band storage (O(n (l + u + 1)) per right-hand
side, never an n x n matrix) through three primitives, each with rules of its own (any order):

* ``band_matvec(ab, x, l, u)``: A x;
* ``band_outer(p, q, l, u)``: the band of p q^T (what a gradient w.r.t. A is, restricted to the band);
* ``transpose_band(ab, l, u)``: the band storage of A^T (bands (u, l)); its own transpose is
  ``transpose_band(., u, l)``.

x = A^-1 b gives b-bar = A^-T g (a banded solve with the transposed band) and ab-bar = -band(b-bar x^T).
"""

import numpy as np
import scipy.linalg as _sl

from ..forms import linear
from ..linalg.eigen import real_for_real
from ..registry import define, primitive
from .structure import kept


@primitive
def solve_banded(l_and_u, ab, b, overwrite_ab=False, overwrite_b=False, check_finite=True):
    return _sl.solve_banded(l_and_u, ab, b, check_finite=check_finite)


def diagonal_span(r, u, n):
    """For row ``r`` of band storage: (offset s with i = j + s, the first j, the end of j)."""
    s = r - u
    return s, max(0, -s), min(n, n - s)


@primitive
def band_matvec(ab, x, l, u):
    """A x for A given by its band ``ab`` (x: (n,) or (n, k))."""
    ab, x = np.asarray(ab), np.asarray(x)
    n = ab.shape[-1]
    y = np.zeros(x.shape, dtype=np.result_type(ab, x))
    for r in range(l + u + 1):
        s, lo, hi = diagonal_span(r, u, n)
        if lo < hi:
            d = ab[r, lo:hi]
            y[lo + s:hi + s] += (d if x.ndim == 1 else d[:, None]) * x[lo:hi]
    return y


@primitive
def band_outer(p, q, l, u):
    """The band (l below, u above) of p q^T in band storage (p, q: (n,) or (n, k))."""
    p, q = np.asarray(p), np.asarray(q)
    n = p.shape[0]
    out = np.zeros((l + u + 1, n), dtype=np.result_type(p, q))
    for r in range(l + u + 1):
        s, lo, hi = diagonal_span(r, u, n)
        if lo < hi:
            prod = p[lo + s:hi + s] * q[lo:hi]
            out[r, lo:hi] = prod if prod.ndim == 1 else prod.sum(axis=-1)
    return out


@primitive
def transpose_band(ab, l, u):
    """The band storage of A^T (l' = u, u' = l) from A's; unread corners are zero."""
    ab = np.asarray(ab)
    n = ab.shape[-1]
    out = np.zeros_like(ab)
    for k in range(l + u + 1):
        r, shift = u + l - k, k - l        # out[k, j] = ab[r, j + shift]
        lo, hi = max(0, -shift), min(n, n - shift)
        if lo < hi:
            out[k, lo:hi] = ab[r, lo + shift:hi + shift]
    return out


def band_matvec_vjp_ab(g, ans, ab, x, l, u):
    return real_for_real(band_outer(g, x, l, u), ab)


def band_matvec_vjp_x(g, ans, ab, x, l, u):
    return real_for_real(band_matvec(transpose_band(ab, l, u), g, u, l), x)


def band_matvec_jvp_ab(t, ans, ab, x, l, u):
    return band_matvec(t, x, l, u)


def band_matvec_jvp_x(t, ans, ab, x, l, u):
    return band_matvec(ab, t, l, u)


define(band_matvec, vjp=(band_matvec_vjp_ab, band_matvec_vjp_x), jvp=(band_matvec_jvp_ab, band_matvec_jvp_x))


def band_outer_vjp_p(g, ans, p, q, l, u):
    return real_for_real(band_matvec(g, q, l, u), p)


def band_outer_vjp_q(g, ans, p, q, l, u):
    return real_for_real(band_matvec(transpose_band(g, l, u), p, u, l), q)


def band_outer_jvp_p(t, ans, p, q, l, u):
    return band_outer(t, q, l, u)


def band_outer_jvp_q(t, ans, p, q, l, u):
    return band_outer(p, t, l, u)


define(band_outer, vjp=(band_outer_vjp_p, band_outer_vjp_q), jvp=(band_outer_jvp_p, band_outer_jvp_q))


@linear(transpose_band)
def transpose_band_vjp(g, ans, ab, l, u):
    return transpose_band(g, u, l)


# --- solve_banded ---------------------------------------------------------------------------------

def banded_cotangent_b(g, l_and_u, ab):
    l, u = l_and_u
    return solve_banded((u, l), transpose_band(ab, l, u), g)


def solve_banded_vjp_ab(g, ans, l_and_u, ab, b, overwrite_ab=False, overwrite_b=False, check_finite=True):
    kept("scipy.linalg.solve_banded", overwrite_ab=overwrite_ab, overwrite_b=overwrite_b)
    return real_for_real(-band_outer(banded_cotangent_b(g, l_and_u, ab), ans, l_and_u[0], l_and_u[1]), ab)


def solve_banded_vjp_b(g, ans, l_and_u, ab, b, overwrite_ab=False, overwrite_b=False, check_finite=True):
    kept("scipy.linalg.solve_banded", overwrite_ab=overwrite_ab, overwrite_b=overwrite_b)
    return real_for_real(banded_cotangent_b(g, l_and_u, ab), b)


def solve_banded_jvp_ab(t, ans, l_and_u, ab, b, overwrite_ab=False, overwrite_b=False, check_finite=True):
    kept("scipy.linalg.solve_banded", overwrite_ab=overwrite_ab, overwrite_b=overwrite_b)
    return -solve_banded(l_and_u, ab, band_matvec(t, ans, l_and_u[0], l_and_u[1]))


def solve_banded_jvp_b(t, ans, l_and_u, ab, b, overwrite_ab=False, overwrite_b=False, check_finite=True):
    kept("scipy.linalg.solve_banded", overwrite_ab=overwrite_ab, overwrite_b=overwrite_b)
    return solve_banded(l_and_u, ab, t)


define((_sl.solve_banded, solve_banded), vjp=(None, solve_banded_vjp_ab, solve_banded_vjp_b),
       jvp=(None, solve_banded_jvp_ab, solve_banded_jvp_b))
