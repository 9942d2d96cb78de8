"""Rules for numpy 2's array-API functions and the as-array conversions: matrix_transpose,
vecdot, matvec, vecmat, cumulative_sum, cumulative_prod, unstack, astype, asanyarray,
ascontiguousarray, asfortranarray, real_if_close.

Functions that newer numpy versions add are registered only where they exist.
"""

import numpy as np

from .forms import jvp_like, reshaping, symmetric
from .registry import define
from .shape import cast
from .statistics import cumprod_jvp, cumprod_vjp, padding
from .support import dtype_of, is_floating, items_like, unbroadcast


# (ascontiguousarray and asfortranarray make a 0-d array 1-d)
reshaping(np.asanyarray, "a, dtype=None, order=None, like=None")
for _fn in (np.ascontiguousarray, np.asfortranarray):
    reshaping(_fn, "a, dtype=None, like=None")


# real_if_close drops an imaginary part that is numerically zero: the gradient of a real input
def real_if_close_vjp(g, ans, a, tol=100):
    return g


define(np.real_if_close, vjp=(real_if_close_vjp,), jvp=jvp_like(real_if_close_vjp))


if hasattr(np, "matrix_transpose"):
    @symmetric(np.matrix_transpose)
    def matrix_transpose_vjp(g, ans, x):
        return np.matrix_transpose(g)


# vecdot(x1, x2) = sum(conj(x1) * x2, axis=-1), broadcasting the other axes
def vecdot_vjp_x1(g, ans, x1, x2, axis=-1):
    return unbroadcast(np.conj(np.expand_dims(g, axis) * x2), x1)


def vecdot_vjp_x2(g, ans, x1, x2, axis=-1):
    return unbroadcast(np.expand_dims(g, axis) * np.conj(x1), x2)


def vecdot_jvp_x1(t, ans, x1, x2, axis=-1):
    return np.sum(np.conj(t) * x2, axis=axis)


def vecdot_jvp_x2(t, ans, x1, x2, axis=-1):
    return np.sum(np.conj(x1) * t, axis=axis)


if hasattr(np, "vecdot"):
    define(np.vecdot, vjp=(vecdot_vjp_x1, vecdot_vjp_x2), jvp=(vecdot_jvp_x1, vecdot_jvp_x2))


# matvec(A, v) = A @ v over the last axes (no conjugate: its cotangents are unconjugated products);
# vecmat(v, A) = conj(v) @ A
def matvec_vjp_a(g, ans, x1, x2):
    return unbroadcast(np.expand_dims(g, -1) * np.expand_dims(x2, -2), x1)


def matvec_vjp_v(g, ans, x1, x2):
    return unbroadcast(np.sum(x1 * np.expand_dims(g, -1), axis=-2), x2)


def matvec_jvp_a(t, ans, x1, x2):
    return np.sum(t * np.expand_dims(x2, -2), axis=-1)


def matvec_jvp_v(t, ans, x1, x2):
    return np.sum(x1 * np.expand_dims(t, -2), axis=-1)


def vecmat_vjp_v(g, ans, x1, x2):
    return unbroadcast(np.conj(np.sum(x2 * np.expand_dims(g, -2), axis=-1)), x1)


def vecmat_vjp_a(g, ans, x1, x2):
    return unbroadcast(np.expand_dims(np.conj(x1), -1) * np.expand_dims(g, -2), x2)


def vecmat_jvp_v(t, ans, x1, x2):
    return np.sum(np.expand_dims(np.conj(t), -1) * x2, axis=-2)


def vecmat_jvp_a(t, ans, x1, x2):
    return np.sum(np.expand_dims(np.conj(x1), -1) * t, axis=-2)


if hasattr(np, "matvec"):
    define(np.matvec, vjp=(matvec_vjp_a, matvec_vjp_v), jvp=(matvec_jvp_a, matvec_jvp_v))
    define(np.vecmat, vjp=(vecmat_vjp_v, vecmat_vjp_a), jvp=(vecmat_jvp_v, vecmat_jvp_a))


# cumulative_sum / cumulative_prod: cumsum / cumprod with an optional leading identity element
def initial_dropped(g, axis, include_initial):
    """The cotangent without the included initial element (axis is required above 1-d)."""
    if not include_initial:
        return g
    ax = 0 if axis is None else axis % np.ndim(g)
    return g[(slice(None),) * ax + (slice(1, None),)]


def cumulative_sum_vjp(g, ans, x, axis=None, dtype=None, out=None, include_initial=False):
    h = initial_dropped(g, axis, include_initial)
    ax = 0 if axis is None else axis
    return np.flip(np.cumsum(np.flip(h, ax), ax), ax)


def cumulative_sum_jvp(t, ans, x, axis=None, dtype=None, out=None, include_initial=False):
    return np.cumulative_sum(t, axis=axis, include_initial=include_initial)


def cumulative_prod_vjp(g, ans, x, axis=None, dtype=None, out=None, include_initial=False):
    ax = 0 if axis is None else axis
    return cumprod_vjp(initial_dropped(g, axis, include_initial), np.cumprod(x, ax), x, ax)


def cumulative_prod_jvp(t, ans, x, axis=None, dtype=None, out=None, include_initial=False):
    ax = 0 if axis is None else axis
    inner = cumprod_jvp(t, np.cumprod(x, ax), x, ax)
    if not include_initial:
        return inner
    return np.pad(inner, padding(np.ndim(x), ax % np.ndim(x), (1, 0)))


if hasattr(np, "cumulative_sum"):
    define(np.cumulative_sum, vjp=(cumulative_sum_vjp,), jvp=(cumulative_sum_jvp,))
    define(np.cumulative_prod, vjp=(cumulative_prod_vjp,), jvp=(cumulative_prod_jvp,))


def unstack_vjp(g, ans, x, axis=0):
    return np.stack(items_like(g, ans), axis=axis)


def unstack_jvp(t, ans, x, axis=0):
    return np.unstack(t, axis=axis)


if hasattr(np, "unstack"):
    define(np.unstack, vjp=(unstack_vjp,), jvp=(unstack_jvp,))


# astype: a cast (no gradient to or from non-floating dtypes)
def astype_vjp(g, ans, x, dtype, copy=True, device=None):
    if is_floating(x) and is_floating(ans):
        return cast(g, dtype_of(x))
    return None


def astype_jvp(t, ans, x, dtype, copy=True, device=None):
    if is_floating(x) and is_floating(ans):
        return cast(t, dtype_of(ans))
    return None


if hasattr(np, "astype"):
    define(np.astype, vjp=(astype_vjp, None), jvp=(astype_jvp, None))


# asarray_chkfinite: asarray that raises on NaN or inf
def asarray_chkfinite_vjp(g, ans, a, dtype=None, order=None):
    return g


define(np.asarray_chkfinite, vjp=(asarray_chkfinite_vjp,), jvp=jvp_like(asarray_chkfinite_vjp))
