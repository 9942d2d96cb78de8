"""Rules for functions that rearrange, repeat or pad an array's elements: atleast_1d/2d/3d,
diag, diagflat, tril, triu, tile, repeat, roll, rot90, fliplr, flipud, pad, append, linspace.

Each output element is a copy of an input element (or a constant), so every rule is linear:
the VJP sends each output's cotangent back to its source (adding where one source feeds
several outputs) and the JVP applies the function itself to the tangent.
"""

import numpy as np

from .forms import reshaping, symmetric
from .registry import define
from .support import axis_index, broadcast_like, scatter_add, shape_of, unbroadcast


# --- at least n dimensions: a reshape -------------------------------------------------------
# (one array at a time: with several arrays numpy returns a tuple, which these rules refuse)

for _fn in (np.atleast_1d, np.atleast_2d, np.atleast_3d):
    reshaping(_fn, "ary")


# --- diagonals and triangles -------------------------------------------------------------------

def diag_index(shape, k):
    """(rows, cols) of the k-th diagonal of a matrix shaped ``shape``."""
    n = max(0, min(shape[0] - max(-k, 0), shape[1] - max(k, 0)))
    return np.arange(n) + max(-k, 0), np.arange(n) + max(k, 0)


def diag_vjp(g, ans, v, k=0):
    if np.ndim(v) == 1:
        return np.diagonal(g, k)
    return scatter_add(g, v, diag_index(shape_of(v), k))


def diag_jvp(t, ans, v, k=0):
    return np.diag(t, k)


define(np.diag, vjp=(diag_vjp,), jvp=(diag_jvp,))


def diagflat_vjp(g, ans, v, k=0):
    return np.reshape(np.diagonal(g, k), shape_of(v))


def diagflat_jvp(t, ans, v, k=0):
    return np.diagflat(t, k)


define(np.diagflat, vjp=(diagflat_vjp,), jvp=(diagflat_jvp,))


@symmetric(np.tril)
def tril_vjp(g, ans, m, k=0):
    return np.tril(g, k)


@symmetric(np.triu)
def triu_vjp(g, ans, m, k=0):
    return np.triu(g, k)


# --- repeating ---------------------------------------------------------------------------------

def tile_layout(shape, reps):
    """For np.tile: the shape interleaving (reps_i, shape_i) pairs, the reps axes, and A's shape."""
    reps = (reps,) if np.ndim(reps) == 0 else tuple(reps)
    d = max(len(shape), len(reps))
    s = (1,) * (d - len(shape)) + tuple(shape)
    r = (1,) * (d - len(reps)) + reps
    return tuple(x for pair in zip(r, s) for x in pair), tuple(range(0, 2 * d, 2))


def tile_vjp(g, ans, A, reps):
    interleaved, rep_axes = tile_layout(shape_of(A), reps)
    return np.reshape(np.sum(np.reshape(g, interleaved), axis=rep_axes), shape_of(A))


def tile_jvp(t, ans, A, reps):
    return np.tile(t, reps)


define(np.tile, vjp=(tile_vjp, None), jvp=(tile_jvp, None))


def repeat_sources(n, repeats):
    """The source index of each element of np.repeat along an axis of length n."""
    return np.repeat(np.arange(n), repeats)


def repeat_vjp(g, ans, a, repeats, axis=None):
    if axis is None:
        return np.reshape(scatter_add(g, np.ravel(a), repeat_sources(np.size(a), repeats)), shape_of(a))
    return scatter_add(g, a, axis_index(repeat_sources(shape_of(a)[axis], repeats), axis, np.ndim(a)))


def repeat_jvp(t, ans, a, repeats, axis=None):
    return np.repeat(t, repeats, axis)


define(np.repeat, vjp=(repeat_vjp, None), jvp=(repeat_jvp, None))


# --- moving elements ---------------------------------------------------------------------------

def roll_vjp(g, ans, a, shift, axis=None):
    return np.roll(g, np.negative(shift), axis)


def roll_jvp(t, ans, a, shift, axis=None):
    return np.roll(t, shift, axis)


define(np.roll, vjp=(roll_vjp, None), jvp=(roll_jvp, None))


def rot90_vjp(g, ans, m, k=1, axes=(0, 1)):
    return np.rot90(g, -k, axes)


def rot90_jvp(t, ans, m, k=1, axes=(0, 1)):
    return np.rot90(t, k, axes)


define(np.rot90, vjp=(rot90_vjp,), jvp=(rot90_jvp,))


@symmetric(np.fliplr)
def fliplr_vjp(g, ans, m):
    return np.fliplr(g)


@symmetric(np.flipud)
def flipud_vjp(g, ans, m):
    return np.flipud(g)


# --- pad: constant, edge, reflect, symmetric, wrap -----------------------------------------------

PAD_COPY_MODES = ("edge", "reflect", "symmetric", "wrap")


def pad_mode(mode, kwargs):
    """The mode, refusing those whose padded values are not copies of elements (or constants)."""
    if mode == "constant" or mode in PAD_COPY_MODES and kwargs.get("reflect_type", "even") == "even":
        return mode
    raise NotImplementedError(f"np.pad(mode={mode!r}{', reflect_type=odd' if kwargs.get('reflect_type') else ''}) "
                              f"has no derivative rule; supported: 'constant', 'edge', 'reflect', "
                              f"'symmetric', 'wrap'")


def pad_interior(shape, pad_width):
    """The index of the original array inside the padded one."""
    widths = np.broadcast_to(np.asarray(pad_width, dtype=np.intp), (len(shape), 2))
    return tuple(slice(int(before), int(before) + n) for (before, _), n in zip(widths, shape))


def pad_sources(shape, pad_width, mode):
    """For each padded element, the flat index of the element it copies."""
    return np.ravel(np.pad(np.reshape(np.arange(int(np.prod(shape))), shape), pad_width, mode=mode))


def pad_vjp(g, ans, array, pad_width, mode="constant", **kwargs):
    if pad_mode(mode, kwargs) == "constant":
        return g[pad_interior(shape_of(array), pad_width)]
    flat = scatter_add(np.ravel(g), np.ravel(array), pad_sources(shape_of(array), pad_width, mode))
    return np.reshape(flat, shape_of(array))


def pad_jvp(t, ans, array, pad_width, mode="constant", **kwargs):
    return np.pad(t, pad_width, mode=pad_mode(mode, kwargs))     # constants have tangent 0


define(np.pad, vjp=(pad_vjp, None), jvp=(pad_jvp, None))


# --- append: concatenate (of the flattened arrays when axis is None) ------------------------------

def append_vjp_arr(g, ans, arr, values, axis=None):
    if axis is None:
        return unbroadcast(np.reshape(g[:np.size(arr)], shape_of(arr)), arr)
    ax = axis % np.ndim(arr)
    return unbroadcast(g[(slice(None),) * ax + (slice(0, shape_of(arr)[ax]),)], arr)


def append_vjp_values(g, ans, arr, values, axis=None):
    if axis is None:
        return unbroadcast(np.reshape(g[np.size(arr):], shape_of(values)), values)
    ax = axis % np.ndim(arr)
    return unbroadcast(g[(slice(None),) * ax + (slice(shape_of(arr)[ax], None),)], values)


def append_jvp_arr(t, ans, arr, values, axis=None):
    return np.append(t, np.zeros(shape_of(values)), axis)


def append_jvp_values(t, ans, arr, values, axis=None):
    return np.append(np.zeros(shape_of(arr)), t, axis)


define(np.append, vjp=(append_vjp_arr, append_vjp_values), jvp=(append_jvp_arr, append_jvp_values))


# --- linspace with array endpoints: start + (stop - start) * fraction -----------------------------

def linspace_fraction(start, stop, num, endpoint, axis):
    """The fractions i / div (0 ... 1) along ``axis`` of the result, shaped to broadcast against it."""
    ndim = len(np.broadcast_shapes(np.shape(start), np.shape(stop))) + 1
    shape = [1] * ndim
    shape[axis % ndim] = num
    return np.reshape(np.linspace(0.0, 1.0, num, endpoint=endpoint), tuple(shape))


def refuse_retstep(retstep):
    if retstep:
        raise NotImplementedError("np.linspace(..., retstep=True) has no derivative rule; compute "
                                  "the step as (stop - start) / (num - 1)")


def linspace_vjp_start(g, ans, start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    refuse_retstep(retstep)
    w = linspace_fraction(start, stop, num, endpoint, axis)
    return unbroadcast(np.sum(g * (1.0 - w), axis=axis), start)


def linspace_vjp_stop(g, ans, start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    refuse_retstep(retstep)
    w = linspace_fraction(start, stop, num, endpoint, axis)
    return unbroadcast(np.sum(g * w, axis=axis), stop)


def linspace_jvp_start(t, ans, start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    w = linspace_fraction(start, stop, num, endpoint, axis)
    t = np.broadcast_to(t, np.broadcast_shapes(np.shape(start), np.shape(stop)))
    return broadcast_like(np.expand_dims(t, axis) * (1.0 - w), ans)


def linspace_jvp_stop(t, ans, start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    w = linspace_fraction(start, stop, num, endpoint, axis)
    t = np.broadcast_to(t, np.broadcast_shapes(np.shape(start), np.shape(stop)))
    return broadcast_like(np.expand_dims(t, axis) * w, ans)


define(np.linspace, vjp=(linspace_vjp_start, linspace_vjp_stop), jvp=(linspace_jvp_start, linspace_jvp_stop))
