"""Rules for the NaN-ignoring reductions: nansum, nanmean, nanprod, nanmax/nanmin, nanvar/nanstd,
nancumsum.  A NaN element is left out of the result, so it gets a zero gradient; everything
else matches the rule of the plain reduction (``reductions``).
"""

import numpy as np

from .reductions import conj_if_complex, max_jvp, max_vjp
from .registry import define
from .sorting import inverse_order
from .statistics import cumprod_jvp, cumprod_vjp, from_one_axis, merged_axis, one_axis, used_ranks
from .support import expand_reduced, shape_of


def nansum_vjp(g, ans, a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    return np.where(np.isnan(a), 0.0, expand_reduced(g, a, axis, keepdims))


def nansum_jvp(t, ans, a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    return np.sum(np.where(np.isnan(a), 0.0, t), axis=axis, keepdims=keepdims)


define(np.nansum, vjp=(nansum_vjp,), jvp=(nansum_jvp,))


def nanmean_vjp(g, ans, a, axis=None, dtype=None, out=None, keepdims=False, where=None):
    count = np.sum(np.where(np.isnan(a), 0.0, 1.0), axis=axis, keepdims=True)
    return np.where(np.isnan(a), 0.0, expand_reduced(g, a, axis, keepdims) / count)


def nanmean_jvp(t, ans, a, axis=None, dtype=None, out=None, keepdims=False, where=None):
    count = np.sum(np.where(np.isnan(a), 0.0, 1.0), axis=axis, keepdims=keepdims)
    return np.sum(np.where(np.isnan(a), 0.0, t), axis=axis, keepdims=keepdims) / count


define(np.nanmean, vjp=(nanmean_vjp,), jvp=(nanmean_jvp,))


# nanprod: NaNs count as 1; otherwise prod's rule (exact for any number of zeros).
def nanprod_vjp(g, ans, a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    x = np.where(np.isnan(a), 1.0, a)
    zero = x == 0
    safe = np.where(zero, 1.0, x)
    sole_zero = np.sum(zero, axis=axis, keepdims=True) == 1
    others = np.where(
        zero,
        np.where(sole_zero, np.prod(safe, axis=axis, keepdims=True), 0.0),
        expand_reduced(ans, a, axis, keepdims) / safe,
    )
    return np.where(np.isnan(a), 0.0, expand_reduced(g, a, axis, keepdims) * others)


def nanprod_jvp(t, ans, a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    x = np.where(np.isnan(a), 1.0, a)
    zero = x == 0
    safe = np.where(zero, 1.0, x)
    sole_zero = np.sum(zero, axis=axis, keepdims=True) == 1
    others = np.where(
        zero,
        np.where(sole_zero, np.prod(safe, axis=axis, keepdims=True), 0.0),
        expand_reduced(ans, a, axis, keepdims) / safe,
    )
    return np.sum(np.where(np.isnan(a), 0.0, t * others), axis=axis, keepdims=keepdims)


define(np.nanprod, vjp=(nanprod_vjp,), jvp=(nanprod_jvp,))

# nanmax / nanmin: a NaN never equals the result, so max's tie rule already skips it.
define(np.nanmax, vjp=(max_vjp,), jvp=(max_jvp,))
define(np.nanmin, vjp=(max_vjp,), jvp=(max_jvp,))


def nanvar_vjp(g, ans, a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    kept = np.logical_not(np.isnan(a))
    centered = conj_if_complex(np.where(kept, a - np.nanmean(a, axis=axis, keepdims=True), 0.0))
    count = np.sum(np.where(kept, 1.0, 0.0), axis=axis, keepdims=True)
    return expand_reduced(g, a, axis, keepdims) * centered * 2.0 / (count - ddof)


def nanvar_jvp(t, ans, a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    kept = np.logical_not(np.isnan(a))
    centered = conj_if_complex(np.where(kept, a - np.nanmean(a, axis=axis, keepdims=True), 0.0))
    count = np.sum(np.where(kept, 1.0, 0.0), axis=axis, keepdims=keepdims)
    return np.real(np.sum(np.where(kept, t, 0.0) * centered, axis=axis, keepdims=keepdims)) * 2.0 / (count - ddof)


define(np.nanvar, vjp=(nanvar_vjp,), jvp=(nanvar_jvp,))


# (a zero deviation gives a zero gradient, as for np.std)
def nanstd_vjp(g, ans, a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    kept = np.logical_not(np.isnan(a))
    centered = conj_if_complex(np.where(kept, a - np.nanmean(a, axis=axis, keepdims=True), 0.0))
    count = np.sum(np.where(kept, 1.0, 0.0), axis=axis, keepdims=True)
    return expand_reduced(g / np.where(ans == 0, 1.0, ans), a, axis, keepdims) * centered / (count - ddof)


def nanstd_jvp(t, ans, a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    kept = np.logical_not(np.isnan(a))
    centered = conj_if_complex(np.where(kept, a - np.nanmean(a, axis=axis, keepdims=True), 0.0))
    count = np.sum(np.where(kept, 1.0, 0.0), axis=axis, keepdims=keepdims)
    dev = np.real(np.sum(np.where(kept, t, 0.0) * centered, axis=axis, keepdims=keepdims))
    return dev / ((count - ddof) * np.where(ans == 0, 1.0, ans))


define(np.nanstd, vjp=(nanstd_vjp,), jvp=(nanstd_jvp,))


def nancumsum_vjp(g, ans, a, axis=None, dtype=None, out=None):
    if axis is None:
        back = np.reshape(np.flip(np.cumsum(np.flip(g))), shape_of(a))
    else:
        back = np.flip(np.cumsum(np.flip(g, axis), axis), axis)
    return np.where(np.isnan(a), 0.0, back)


def nancumsum_jvp(t, ans, a, axis=None, dtype=None, out=None):
    return np.cumsum(np.where(np.isnan(a), 0.0, t), axis)


define(np.nancumsum, vjp=(nancumsum_vjp,), jvp=(nancumsum_jvp,))


# nancumprod: NaNs count as 1 (cumprod's rule on the cleaned input, nothing to the NaNs)
def nancumprod_vjp(g, ans, a, axis=None, dtype=None, out=None):
    return np.where(np.isnan(a), 0.0, cumprod_vjp(g, ans, np.where(np.isnan(a), 1.0, a), axis))


def nancumprod_jvp(t, ans, a, axis=None, dtype=None, out=None):
    return cumprod_jvp(np.where(np.isnan(a), 0.0, t), ans, np.where(np.isnan(a), 1.0, a), axis)


define(np.nancumprod, vjp=(nancumprod_vjp,), jvp=(nancumprod_jvp,))


# --- nanmedian, nanquantile, nanpercentile (linear interpolation among each slice's non-NaNs) ----------

def nan_quantile_weights(q, x, ax, method="linear"):
    """Weights (q.shape + x.shape) combining each slice's sorted non-NaN values into its quantiles."""
    if method != "linear":
        raise NotImplementedError(f"quantile/percentile derivatives exist for method='linear' only, not {method!r}")
    q = np.asarray(q, dtype=np.float64)
    count = np.sum(np.logical_not(np.isnan(x)), axis=ax, keepdims=True)
    qb = np.reshape(q, q.shape + (1,) * np.ndim(x))
    pos = qb * (count - 1)
    lo = np.floor(pos)
    hi = np.minimum(lo + 1, count - 1)
    frac = pos - lo
    shape = [1] * np.ndim(x)
    shape[ax] = shape_of(x)[ax]
    j = np.reshape(np.arange(shape[ax]), shape)
    return np.where(j == lo, 1.0 - frac, 0.0) + np.where(j == hi, frac, 0.0)


def nan_quantile_cotangent(g, a, q, axis, method="linear"):
    x = one_axis(a, axis)
    ax = merged_axis(axis, np.ndim(a))
    w = nan_quantile_weights(q, x, ax, method)
    nq = np.ndim(q)
    rest = shape_of(x)[:ax] + shape_of(x)[ax + 1:]
    g = np.expand_dims(np.reshape(g, np.shape(q) + rest), nq + ax)
    sorted_g = np.sum(w * g, axis=tuple(range(nq)))
    order = np.argpartition(x, used_ranks(w, nq + ax), axis=ax)
    return from_one_axis(np.take_along_axis(sorted_g, inverse_order(order, ax), axis=ax), a, axis)


def nan_quantile_tangent(t, ans, a, q, axis, method="linear"):
    x = one_axis(a, axis)
    ax = merged_axis(axis, np.ndim(a))
    tx = one_axis(t, axis)
    w = nan_quantile_weights(q, x, ax, method)
    order = np.argpartition(x, used_ranks(w, np.ndim(q) + ax), axis=ax)
    sorted_t = np.take_along_axis(np.where(np.isnan(x), 0.0, tx), order, axis=ax)
    return np.reshape(np.sum(w * sorted_t, axis=np.ndim(q) + ax), shape_of(ans))


def nanmedian_vjp(g, ans, a, axis=None, out=None, overwrite_input=False, keepdims=False):
    return nan_quantile_cotangent(g, a, 0.5, axis)


def nanmedian_jvp(t, ans, a, axis=None, out=None, overwrite_input=False, keepdims=False):
    return nan_quantile_tangent(t, ans, a, 0.5, axis)


define(np.nanmedian, vjp=(nanmedian_vjp,), jvp=(nanmedian_jvp,))


def nanquantile_vjp(g, ans, a, q, axis=None, out=None, overwrite_input=False, method="linear",
                    keepdims=False, weights=None, interpolation=None):
    return nan_quantile_cotangent(g, a, q, axis, method)


def nanquantile_jvp(t, ans, a, q, axis=None, out=None, overwrite_input=False, method="linear",
                    keepdims=False, weights=None, interpolation=None):
    return nan_quantile_tangent(t, ans, a, q, axis, method)


define(np.nanquantile, vjp=(nanquantile_vjp, None), jvp=(nanquantile_jvp, None))


def nanpercentile_vjp(g, ans, a, q, axis=None, out=None, overwrite_input=False, method="linear",
                      keepdims=False, weights=None, interpolation=None):
    return nan_quantile_cotangent(g, a, np.asarray(q) / 100.0, axis, method)


def nanpercentile_jvp(t, ans, a, q, axis=None, out=None, overwrite_input=False, method="linear",
                      keepdims=False, weights=None, interpolation=None):
    return nan_quantile_tangent(t, ans, a, np.asarray(q) / 100.0, axis, method)


define(np.nanpercentile, vjp=(nanpercentile_vjp, None), jvp=(nanpercentile_jvp, None))
