"""Rules for functions that pick or drop elements, and fill or space them out: delete,
compress, extract, choose, resize, rollaxis, full_like, logspace, geomspace, ediff1d.

Picks are linear: the VJP scatters the cotangent back to the sources (``scatter_add``), the
JVP picks from the tangent the same way.
"""

import numpy as np

from .arrange import linspace_fraction
from .forms import jvp_like
from .registry import define
from .support import axis_index, broadcast_like, inverse_permutation, scatter_add, shape_of, unbroadcast


def kept_positions(n, obj):
    """The positions np.delete keeps along an axis of length n."""
    return np.delete(np.arange(n), obj)


def delete_vjp(g, ans, arr, obj, axis=None):
    if axis is None:
        return np.reshape(scatter_add(g, np.ravel(arr), kept_positions(np.size(arr), obj)), shape_of(arr))
    return scatter_add(g, arr, axis_index(kept_positions(shape_of(arr)[axis], obj), axis, np.ndim(arr)))


def delete_jvp(t, ans, arr, obj, axis=None):
    return np.delete(t, obj, axis)


define(np.delete, vjp=(delete_vjp, None), jvp=(delete_jvp, None))


def compress_vjp(g, ans, condition, a, axis=None, out=None):
    picked = np.flatnonzero(condition)
    if axis is None:
        return np.reshape(scatter_add(g, np.ravel(a), picked), shape_of(a))
    return scatter_add(g, a, axis_index(picked, axis, np.ndim(a)))


def compress_jvp(t, ans, condition, a, axis=None, out=None):
    return np.compress(condition, t, axis)


define(np.compress, vjp=(None, compress_vjp), jvp=(None, compress_jvp))


def extract_vjp(g, ans, condition, arr):
    return np.reshape(scatter_add(g, np.ravel(arr), np.flatnonzero(condition)), shape_of(arr))


def extract_jvp(t, ans, condition, arr):
    return np.extract(condition, t)


define(np.extract, vjp=(None, extract_vjp), jvp=(None, extract_jvp))


# choose(a, choices): element i comes from choices[a[i]]; the choices' VJP is a tuple
def choose_vjp_choices(g, ans, a, choices, out=None, mode="raise"):
    return tuple(unbroadcast(np.where(np.equal(a, k), g, 0.0), c) for k, c in enumerate(choices))


def choose_jvp_choices(t, ans, a, choices, out=None, mode="raise"):
    return broadcast_like(np.choose(a, t), ans)


define(np.choose, vjp=(None, choose_vjp_choices), jvp=(None, choose_jvp_choices))


def resize_sources(size, new_shape):
    """The flat source index of each element of np.resize (the input repeats cyclically)."""
    return np.ravel(np.resize(np.arange(size), new_shape))


def resize_vjp(g, ans, a, new_shape):
    flat = scatter_add(np.ravel(g), np.ravel(a), resize_sources(np.size(a), new_shape))
    return np.reshape(flat, shape_of(a))


def resize_jvp(t, ans, a, new_shape):
    return np.resize(t, new_shape)


define(np.resize, vjp=(resize_vjp, None), jvp=(resize_jvp, None))


def rollaxis_order(ndim, axis, start):
    """The permutation np.rollaxis applies (np.transpose's axes), as numpy computes it."""
    axis = axis % ndim
    if start < 0:
        start += ndim
    if axis < start:
        start -= 1
    order = list(range(ndim))
    order.remove(axis)
    order.insert(start, axis)
    return order


def rollaxis_vjp(g, ans, a, axis, start=0):
    return np.transpose(g, inverse_permutation(rollaxis_order(np.ndim(a), axis, start), np.ndim(a)))


def rollaxis_jvp(t, ans, a, axis, start=0):
    return np.rollaxis(t, axis, start)


define(np.rollaxis, vjp=(rollaxis_vjp,), jvp=(rollaxis_jvp,))


def full_like_vjp_fill(g, ans, a, fill_value, dtype=None, order="K", subok=True, shape=None, device=None):
    return unbroadcast(g, fill_value)


define(np.full_like, vjp=(None, full_like_vjp_fill), jvp=(None,) + jvp_like(full_like_vjp_fill))


# logspace = base ** linspace(start, stop); geomspace = start * (stop / start) ** fraction
def logspace_vjp_start(g, ans, start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    w = linspace_fraction(start, stop, num, endpoint, axis)
    return unbroadcast(np.sum(g * ans * np.log(base) * (1.0 - w), axis=axis), start)


def logspace_vjp_stop(g, ans, start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    w = linspace_fraction(start, stop, num, endpoint, axis)
    return unbroadcast(np.sum(g * ans * np.log(base) * w, axis=axis), stop)


def logspace_jvp_start(t, ans, start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    w = linspace_fraction(start, stop, num, endpoint, axis)
    t = np.broadcast_to(t, np.broadcast_shapes(np.shape(start), np.shape(stop)))
    return np.expand_dims(t, axis) * ans * np.log(base) * (1.0 - w)


def logspace_jvp_stop(t, ans, start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    w = linspace_fraction(start, stop, num, endpoint, axis)
    t = np.broadcast_to(t, np.broadcast_shapes(np.shape(start), np.shape(stop)))
    return np.expand_dims(t, axis) * ans * np.log(base) * w


define(np.logspace, vjp=(logspace_vjp_start, logspace_vjp_stop), jvp=(logspace_jvp_start, logspace_jvp_stop))


def geomspace_vjp_start(g, ans, start, stop, num=50, endpoint=True, dtype=None, axis=0):
    w = linspace_fraction(start, stop, num, endpoint, axis)
    return unbroadcast(np.sum(g * ans * (1.0 - w), axis=axis) / start, start)


def geomspace_vjp_stop(g, ans, start, stop, num=50, endpoint=True, dtype=None, axis=0):
    w = linspace_fraction(start, stop, num, endpoint, axis)
    return unbroadcast(np.sum(g * ans * w, axis=axis) / stop, stop)


def geomspace_jvp_start(t, ans, start, stop, num=50, endpoint=True, dtype=None, axis=0):
    w = linspace_fraction(start, stop, num, endpoint, axis)
    t = np.broadcast_to(t / start, np.broadcast_shapes(np.shape(start), np.shape(stop)))
    return np.expand_dims(t, axis) * ans * (1.0 - w)


def geomspace_jvp_stop(t, ans, start, stop, num=50, endpoint=True, dtype=None, axis=0):
    w = linspace_fraction(start, stop, num, endpoint, axis)
    t = np.broadcast_to(t / stop, np.broadcast_shapes(np.shape(start), np.shape(stop)))
    return np.expand_dims(t, axis) * ans * w


define(np.geomspace, vjp=(geomspace_vjp_start, geomspace_vjp_stop), jvp=(geomspace_jvp_start, geomspace_jvp_stop))


# ediff1d(ary, to_end, to_begin) = concatenate(to_begin, diff(ravel(ary)), to_end)
def ediff1d_vjp(g, ans, ary, to_end=None, to_begin=None):
    lo = 0 if to_begin is None else np.size(to_begin)
    inner = g[lo:lo + np.size(ary) - 1]
    return np.reshape(-np.diff(inner, prepend=0.0, append=0.0), shape_of(ary))


def ediff1d_jvp(t, ans, ary, to_end=None, to_begin=None):
    parts = [np.zeros(np.size(to_begin))] if to_begin is not None else []
    parts = parts + [np.diff(np.ravel(t))]
    if to_end is not None:
        parts = parts + [np.zeros(np.size(to_end))]
    return np.concatenate(parts)


define(np.ediff1d, vjp=(ediff1d_vjp,), jvp=(ediff1d_jvp,))


# trim_zeros keeps a slice of a 1-d array: the cotangent goes back to that slice
def trim_bounds(filt, trim):
    nz = np.flatnonzero(np.not_equal(filt, 0))
    n = shape_of(filt)[0]
    if np.size(nz) == 0:
        return 0, 0
    lo = int(nz[0]) if "f" in trim.lower() else 0
    hi = int(nz[-1]) + 1 if "b" in trim.lower() else n
    return lo, hi


def trim_zeros_vjp(g, ans, filt, trim="fb", axis=None):
    lo, hi = trim_bounds(filt, trim)
    return np.pad(g, (lo, shape_of(filt)[0] - hi))


def trim_zeros_jvp(t, ans, filt, trim="fb", axis=None):
    lo, hi = trim_bounds(filt, trim)
    return t[lo:hi]


define(np.trim_zeros, vjp=(trim_zeros_vjp,), jvp=(trim_zeros_jvp,))


# sliding_window_view: every window element is a copy of an input element
def window_sources(shape, window_shape, axis):
    index = np.reshape(np.arange(int(np.prod(shape))), shape)
    return np.ravel(np.lib.stride_tricks.sliding_window_view(index, window_shape, axis))


def sliding_window_view_vjp(g, ans, x, window_shape, axis=None, subok=False, writeable=False):
    flat = scatter_add(np.ravel(g), np.ravel(x), window_sources(shape_of(x), window_shape, axis))
    return np.reshape(flat, shape_of(x))


def sliding_window_view_jvp(t, ans, x, window_shape, axis=None, subok=False, writeable=False):
    return np.lib.stride_tricks.sliding_window_view(t, window_shape, axis)


define(np.lib.stride_tricks.sliding_window_view, vjp=(sliding_window_view_vjp, None),
       jvp=(sliding_window_view_jvp, None))
