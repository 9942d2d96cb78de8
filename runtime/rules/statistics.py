"""Rules for order statistics and running or differencing reductions: median, quantile and
percentile (linear interpolation only), average (with weights), ptp, cumprod, diff, trapezoid.

* Order statistics send the gradient to the (at most two) sorted elements the result
  interpolates between; ties are measure-zero and go to whichever element sorting put there.
* ``cumprod`` is exact with zeros too, in O(n) either way: without zeros a reversed running sum
  divided by x, with zeros the same up to the first zero and a cumprod that leaves that zero out.
* ``diff``'s constant ``prepend=`` / ``append=`` get no gradient.
"""

import numpy as np

from .registry import define, nondifferentiable
from .sorting import inverse_order
from .support import expand_reduced, inverse_permutation, reduced_size, shape_of, unbroadcast, value_of


# --- median, quantile, percentile -------------------------------------------------------------

def quantile_weights(q, n, method="linear"):
    """Weights (shape q.shape + (n,)) that combine the n sorted values into each quantile."""
    if method != "linear":
        raise NotImplementedError(f"quantile/percentile derivatives exist for method='linear' only, "
                                  f"not {method!r}")
    pos = np.asarray(q, dtype=np.float64)[..., None] * (n - 1)
    lo = np.floor(pos)
    hi = np.minimum(lo + 1, n - 1)
    frac = pos - lo
    j = np.arange(n)
    return np.where(j == lo, 1.0 - frac, 0.0) + np.where(j == hi, frac, 0.0)


def used_ranks(w, axis=-1):
    """The sorted positions (along ``axis``) the quantile weights ``w`` read in any slice: an
    argpartition at these ranks puts the right elements there in O(n) (the other positions get
    weight 0, their order does not matter; NaNs go last in both)."""
    used = np.moveaxis(value_of(w) != 0, axis, -1)
    return np.flatnonzero(np.any(np.reshape(used, (-1, np.shape(used)[-1])), axis=0))


def one_axis(a, axis):
    """``a`` with the axes a quantile reduces made one (``merged_axis``): numpy's own layout for
    ``axis=None`` (flattened) and for a tuple of axes (moved last and merged)."""
    if axis is None:
        return np.ravel(a)
    if isinstance(axis, (tuple, list)):
        reduced = [i % np.ndim(a) for i in axis]
        kept = [i for i in range(np.ndim(a)) if i not in reduced]
        merged = tuple(shape_of(a)[i] for i in kept) + (-1,)
        return np.reshape(np.transpose(a, kept + reduced), merged)
    return a


def merged_axis(axis, ndim):
    """The axis of ``one_axis(a, axis)`` that the quantile reduces (``ndim``: a's)."""
    if axis is None:
        return 0
    if isinstance(axis, (tuple, list)):
        return ndim - len(axis)
    return axis % ndim


def from_one_axis(h, a, axis):
    """A cotangent laid out as ``one_axis(a, axis)`` back in ``a``'s layout."""
    if isinstance(axis, (tuple, list)):
        reduced = [i % np.ndim(a) for i in axis]
        order = [i for i in range(np.ndim(a)) if i not in reduced] + reduced
        h = np.reshape(h, tuple(shape_of(a)[i] for i in order))
        return np.transpose(h, inverse_permutation(order, np.ndim(a)))
    return np.reshape(h, shape_of(a))


def quantile_cotangent(g, a, q, axis, keepdims, method="linear"):
    """d <g, quantile(a, q, axis)> / d a, for g shaped like the quantile."""
    x = one_axis(a, axis)
    ax = merged_axis(axis, np.ndim(a))
    n = shape_of(x)[ax]
    w = quantile_weights(q, n, method)
    nq = np.ndim(w) - 1
    rest = shape_of(x)[:ax] + shape_of(x)[ax + 1:]
    g = np.reshape(g, np.shape(q) + rest)                               # undo keepdims
    sorted_g = np.moveaxis(np.tensordot(w, g, axes=(list(range(nq)), list(range(nq)))), 0, ax)
    order = np.argpartition(x, used_ranks(w), axis=ax)
    return from_one_axis(np.take_along_axis(sorted_g, inverse_order(order, ax), axis=ax), a, axis)


def quantile_tangent(t, ans, a, q, axis, method="linear"):
    """The tangent of quantile(a, q, axis) along t."""
    x = one_axis(a, axis)
    ax = merged_axis(axis, np.ndim(a))
    tx = one_axis(t, axis)
    w = quantile_weights(q, shape_of(x)[ax], method)
    sorted_t = np.take_along_axis(tx, np.argpartition(x, used_ranks(w), axis=ax), axis=ax)
    return np.reshape(np.tensordot(w, np.moveaxis(sorted_t, ax, 0), axes=([np.ndim(w) - 1], [0])), shape_of(ans))


def median_vjp(g, ans, a, axis=None, out=None, overwrite_input=False, keepdims=False):
    return quantile_cotangent(g, a, 0.5, axis, keepdims)


def median_jvp(t, ans, a, axis=None, out=None, overwrite_input=False, keepdims=False):
    return quantile_tangent(t, ans, a, 0.5, axis)


define(np.median, vjp=(median_vjp,), jvp=(median_jvp,))
nondifferentiable(used_ranks)


def quantile_vjp(g, ans, a, q, axis=None, out=None, overwrite_input=False, method="linear",
                 keepdims=False, weights=None, interpolation=None):
    return quantile_cotangent(g, a, q, axis, keepdims, method)


def quantile_jvp(t, ans, a, q, axis=None, out=None, overwrite_input=False, method="linear",
                 keepdims=False, weights=None, interpolation=None):
    return quantile_tangent(t, ans, a, q, axis, method)


define(np.quantile, vjp=(quantile_vjp, None), jvp=(quantile_jvp, None))


def percentile_vjp(g, ans, a, q, axis=None, out=None, overwrite_input=False, method="linear",
                   keepdims=False, weights=None, interpolation=None):
    return quantile_cotangent(g, a, np.asarray(q) / 100.0, axis, keepdims, method)


def percentile_jvp(t, ans, a, q, axis=None, out=None, overwrite_input=False, method="linear",
                   keepdims=False, weights=None, interpolation=None):
    return quantile_tangent(t, ans, a, np.asarray(q) / 100.0, axis, method)


define(np.percentile, vjp=(percentile_vjp, None), jvp=(percentile_jvp, None))


# --- average with weights ----------------------------------------------------------------------

def weights_along(weights, a, axis):
    """``weights`` shaped to broadcast against ``a`` (numpy's 1-d weights lie along ``axis``)."""
    if np.ndim(weights) == 1 and np.ndim(a) > 1:
        shape = [1] * np.ndim(a)
        shape[axis % np.ndim(a)] = shape_of(weights)[0]
        return np.reshape(weights, tuple(shape))
    return weights


def refuse_returned(returned):
    if returned:
        raise NotImplementedError("np.average(..., returned=True) has no derivative rule; "
                                  "compute the sum of weights separately")


def average_vjp_a(g, ans, a, axis=None, weights=None, returned=False, keepdims=False):
    refuse_returned(returned)
    if weights is None:
        return expand_reduced(g, a, axis, keepdims) / reduced_size(shape_of(a), axis)
    w = weights_along(weights, a, axis)
    total = np.sum(np.broadcast_to(w, shape_of(a)), axis=axis, keepdims=True)
    return unbroadcast(expand_reduced(g, a, axis, keepdims) * w / total, a)


def average_vjp_weights(g, ans, a, axis=None, weights=None, returned=False, keepdims=False):
    refuse_returned(returned)
    w = weights_along(weights, a, axis)
    total = np.sum(np.broadcast_to(w, shape_of(a)), axis=axis, keepdims=True)
    h = expand_reduced(g, a, axis, keepdims) * (a - expand_reduced(ans, a, axis, keepdims)) / total
    return np.reshape(unbroadcast(h, w), shape_of(weights))


def average_jvp_a(t, ans, a, axis=None, weights=None, returned=False, keepdims=False):
    return np.average(t, axis=axis, weights=weights, keepdims=keepdims)


def average_jvp_weights(t, ans, a, axis=None, weights=None, returned=False, keepdims=False):
    w = weights_along(weights, a, axis)
    dw = weights_along(t, a, axis)
    total = np.sum(np.broadcast_to(w, shape_of(a)), axis=axis, keepdims=keepdims)
    spread = np.broadcast_to(dw * (a - expand_reduced(ans, a, axis, keepdims)), shape_of(a))
    return np.sum(spread, axis=axis, keepdims=keepdims) / total


define(np.average, vjp=(average_vjp_a, None, average_vjp_weights), jvp=(average_jvp_a, None, average_jvp_weights))


# --- ptp = max - min -------------------------------------------------------------------------

def ptp_vjp(g, ans, a, axis=None, out=None, keepdims=False):
    top = np.where(a == np.max(a, axis=axis, keepdims=True), 1.0, 0.0)
    bottom = np.where(a == np.min(a, axis=axis, keepdims=True), 1.0, 0.0)
    share = top / np.sum(top, axis=axis, keepdims=True) - bottom / np.sum(bottom, axis=axis, keepdims=True)
    return expand_reduced(g, a, axis, keepdims) * share


def ptp_jvp(t, ans, a, axis=None, out=None, keepdims=False):
    top = np.where(a == np.max(a, axis=axis, keepdims=True), 1.0, 0.0)
    bottom = np.where(a == np.min(a, axis=axis, keepdims=True), 1.0, 0.0)
    share = top / np.sum(top, axis=axis, keepdims=True) - bottom / np.sum(bottom, axis=axis, keepdims=True)
    return np.sum(t * share, axis=axis, keepdims=keepdims)


define(np.ptp, vjp=(ptp_vjp,), jvp=(ptp_jvp,))


# --- cumprod -------------------------------------------------------------------------------------

# With zeros: let z be a lane's first zero and x1 = x with x_z -> 1, y1 = cumprod(x1).  Then
# y_j = y1_j for j < z and x_z * y1_j for j >= z, an identity of polynomials, so
#   <g, y> = <g * s, y1>,  s_j = 1 (j < z), x_z (j >= z),
# and the derivative w.r.t. x_i (i != z) is cumprod's VJP at x1 with cotangent g * s (x1 has one
# zero fewer), w.r.t. x_z it is sum_{j >= z} g_j y1_j.  s holds x_z itself (0 in value), so the
# rule's own derivative is exact too.  One level per zero in a lane, each O(n); more than
# MAX_ZEROS zeros in a lane use the O(n^2) products of "all the others" instead.

MAX_ZEROS = 4


def first_zero(x):
    """Per lane of the last axis: the index of the first zero (n where there is none), shaped [..., 1]."""
    zero = x == 0
    return np.where(np.any(zero, axis=-1, keepdims=True), np.argmax(zero, axis=-1)[..., None], shape_of(x)[-1])


def without_first_zero(x):
    """(j, z, x_z, x1, y1, s) of the identity above, along the last axis."""
    j = np.arange(shape_of(x)[-1])
    z = first_zero(x)
    x_z = np.sum(np.where(j == z, x, 0.0), axis=-1, keepdims=True)
    x1 = np.where(j == z, 1.0, x)
    return j, z, x_z, x1, np.cumprod(x1, axis=-1), np.where(j >= z, x_z, 1.0)


def cumprod_others(x):
    """m[..., i, j] = prod(x[k] for k <= j if k != i) for j >= i, else 0 (along the last axis)."""
    n = shape_of(x)[-1]
    rows = np.where(np.eye(n, dtype=bool), 1.0, x[..., None, :])     # row i: x with x_i -> 1
    return np.triu(np.cumprod(rows, axis=-1))


def many_zeros(x):
    return int(np.max(np.sum(value_of(x) == 0, axis=-1), initial=0)) > MAX_ZEROS


def cumprod_vjp_with_zeros(g, ans, x):
    """The VJP along the last axis when x holds zeros."""
    if many_zeros(x):
        return np.sum(cumprod_others(x) * g[..., None, :], axis=-1)
    j, z, x_z, x1, y1, s = without_first_zero(x)
    inner = cumprod_vjp(g * s, y1, x1, -1)
    return np.where(j == z, np.sum(np.where(j >= z, g * y1, 0.0), axis=-1, keepdims=True), inner)


def cumprod_jvp_with_zeros(t, ans, x):
    if many_zeros(x):
        return np.sum(cumprod_others(x) * t[..., :, None], axis=-2)
    j, z, x_z, x1, y1, s = without_first_zero(x)
    t_z = np.sum(np.where(j == z, t, 0.0), axis=-1, keepdims=True)
    return cumprod_jvp(np.where(j == z, 0.0, t), y1, x1, -1) * s + y1 * np.where(j >= z, t_z, 0.0)


def cumprod_vjp(g, ans, a, axis=None, dtype=None, out=None):
    x = np.ravel(a) if axis is None else a
    ax = 0 if axis is None else axis
    if np.all(x != 0):
        back = np.flip(np.cumsum(np.flip(g * ans, ax), ax), ax) / x
    else:
        g_last, ans_last = np.moveaxis(g, ax, -1), np.moveaxis(np.reshape(ans, shape_of(x)), ax, -1)
        back = np.moveaxis(cumprod_vjp_with_zeros(g_last, ans_last, np.moveaxis(x, ax, -1)), -1, ax)
    return np.reshape(back, shape_of(a))


def cumprod_jvp(t, ans, a, axis=None, dtype=None, out=None):
    x = np.ravel(a) if axis is None else a
    tx = np.ravel(t) if axis is None else t
    ax = 0 if axis is None else axis
    if np.all(x != 0):
        return np.cumsum(tx / x, ax) * ans
    t_last, ans_last = np.moveaxis(tx, ax, -1), np.moveaxis(ans, ax, -1)
    return np.moveaxis(cumprod_jvp_with_zeros(t_last, ans_last, np.moveaxis(x, ax, -1)), -1, ax)


define(np.cumprod, vjp=(cumprod_vjp,), jvp=(cumprod_jvp,))


# --- diff: the adjoint of one difference is minus the difference of g padded with zeros ---------

def padding(ndim, ax, ends):
    """``np.pad``'s pad_width for ``ends`` along axis ``ax`` only."""
    return [ends if i == ax else (0, 0) for i in range(ndim)]


def end_length(end, axis, ndim):
    """How many elements a ``prepend=`` / ``append=`` value adds along ``axis`` (0 for None)."""
    if end is None:
        return 0
    return np.shape(end)[axis % ndim] if np.ndim(end) else 1


def diff_vjp(g, ans, a, n=1, axis=-1, prepend=None, append=None):
    for _ in range(n):
        g = -np.diff(g, axis=axis, prepend=0.0, append=0.0)
    ax = axis % np.ndim(a)
    lo = end_length(prepend, ax, np.ndim(a))
    return g[(slice(None),) * ax + (slice(lo, lo + shape_of(a)[ax]),)]


def diff_jvp(t, ans, a, n=1, axis=-1, prepend=None, append=None):
    lo = end_length(prepend, axis, np.ndim(a))
    hi = end_length(append, axis, np.ndim(a))
    return np.diff(np.pad(t, padding(np.ndim(a), axis % np.ndim(a), (lo, hi))), n=n, axis=axis)


define(np.diff, vjp=(diff_vjp,), jvp=(diff_jvp,))


# --- trapezoid -------------------------------------------------------------------------------------

def trapezoid_steps(y, x, dx, ax):
    """The interval widths, shaped to broadcast against the n - 1 intervals of y along ``ax``."""
    if x is None:
        return dx
    if np.ndim(x) == 1:
        shape = [1] * np.ndim(y)
        shape[ax] = shape_of(x)[0] - 1
        return np.reshape(np.diff(x), tuple(shape))
    return np.diff(x, axis=ax)


def pairs(y, ax):
    """The left and right ends of each interval along ``ax``."""
    lead = (slice(None),) * ax
    return y[lead + (slice(None, -1),)], y[lead + (slice(1, None),)]


def trapezoid_vjp_y(g, ans, y, x=None, dx=1.0, axis=-1):
    ax = axis % np.ndim(y)
    lo, hi = pairs(y, ax)
    h = np.expand_dims(g, ax) * trapezoid_steps(y, x, dx, ax) / 2.0 * np.ones(shape_of(lo))
    left = np.pad(h, padding(np.ndim(y), ax, (0, 1)))
    return unbroadcast(left + np.pad(h, padding(np.ndim(y), ax, (1, 0))), y)


def trapezoid_vjp_x(g, ans, y, x=None, dx=1.0, axis=-1):
    ax = axis % np.ndim(y)
    lo, hi = pairs(y, ax)
    k = np.expand_dims(g, ax) * (lo + hi) / 2.0
    back = -np.diff(k, axis=ax, prepend=0.0, append=0.0)
    if np.ndim(x) == 1 and np.ndim(y) > 1:
        return np.sum(back, axis=tuple(i for i in range(np.ndim(y)) if i != ax))
    return unbroadcast(back, x)


def trapezoid_vjp_dx(g, ans, y, x=None, dx=1.0, axis=-1):
    lo, hi = pairs(y, axis % np.ndim(y))
    return unbroadcast(np.sum(np.expand_dims(g, axis % np.ndim(y)) * (lo + hi) / 2.0, axis=axis), dx)


def trapezoid_jvp_y(t, ans, y, x=None, dx=1.0, axis=-1):
    return np.trapezoid(t, x, dx, axis)


def trapezoid_jvp_x(t, ans, y, x=None, dx=1.0, axis=-1):
    return np.trapezoid(y, t, dx, axis)            # linear in x


def trapezoid_jvp_dx(t, ans, y, x=None, dx=1.0, axis=-1):
    return np.trapezoid(y, None, t, axis)


if hasattr(np, "trapezoid"):
    define(np.trapezoid, vjp=(trapezoid_vjp_y, trapezoid_vjp_x, trapezoid_vjp_dx),
           jvp=(trapezoid_jvp_y, trapezoid_jvp_x, trapezoid_jvp_dx))
