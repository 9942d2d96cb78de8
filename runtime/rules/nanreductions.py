"""Rules for the NaN-ignoring reductions: nansum, nanmean, nanprod, nanmax/nanmin, nanvar/nanstd,
nancumsum.  A NaN element is left out of the result, so it gets a zero gradient; everything
else matches the rule of the plain reduction (``reductions``).
"""

import numpy as np

from .reductions import max_jvp, max_vjp
from .registry import define
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
    centered = np.where(kept, a - np.nanmean(a, axis=axis, keepdims=True), 0.0)
    count = np.sum(np.where(kept, 1.0, 0.0), axis=axis, keepdims=True)
    return expand_reduced(g, a, axis, keepdims) * centered * 2.0 / (count - ddof)


def nanvar_jvp(t, ans, a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    kept = np.logical_not(np.isnan(a))
    centered = np.where(kept, a - np.nanmean(a, axis=axis, keepdims=True), 0.0)
    count = np.sum(np.where(kept, 1.0, 0.0), axis=axis, keepdims=keepdims)
    return np.sum(np.where(kept, t, 0.0) * centered, axis=axis, keepdims=keepdims) * 2.0 / (count - ddof)


define(np.nanvar, vjp=(nanvar_vjp,), jvp=(nanvar_jvp,))


# (a zero deviation gives a zero gradient, as for np.std)
def nanstd_vjp(g, ans, a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    kept = np.logical_not(np.isnan(a))
    centered = np.where(kept, a - np.nanmean(a, axis=axis, keepdims=True), 0.0)
    count = np.sum(np.where(kept, 1.0, 0.0), axis=axis, keepdims=True)
    return expand_reduced(g / np.where(ans == 0, 1.0, ans), a, axis, keepdims) * centered / (count - ddof)


def nanstd_jvp(t, ans, a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    kept = np.logical_not(np.isnan(a))
    centered = np.where(kept, a - np.nanmean(a, axis=axis, keepdims=True), 0.0)
    count = np.sum(np.where(kept, 1.0, 0.0), axis=axis, keepdims=keepdims)
    dev = np.sum(np.where(kept, t, 0.0) * centered, axis=axis, keepdims=keepdims)
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
