"""Specs for shape, indexing, joining, splitting, sorting and rearranging rules."""

import operator

import numpy as np
from hypothesis import strategies as st

from runtime.rules.gather import gather
from runtime.rules.shape import cast

from . import add, axis_of, broadcast_shapes, shape, spec, values


def one(fn, make_kwargs=lambda draw, shp: ({}, []), min_dims=0, min_side=1, max_side=3, max_dims=3, **kw):
    """A spec for fn(x, *extra, **kwargs) with x drawn and (kwargs, extra) from ``make_kwargs``."""
    def make(draw, rng):
        shp = shape(draw, min_dims=min_dims, max_dims=max_dims, min_side=min_side, max_side=max_side)
        kwargs, extra = make_kwargs(draw, shp)
        return [values(rng, shp)] + list(extra), kwargs
    add(fn, make, **kw)


def ax(draw, shp, none=True):
    return axis_of(draw, len(shp), none=none)


one(np.reshape, lambda d, s: ({}, [(-1,)]))
one(np.ravel)
# order="F": the elements column by column, read back the same way
one(np.reshape, lambda d, s: ({"order": "F"}, [tuple(reversed(s))]), min_dims=2, min_side=2, label="reshape/F")
one(np.ravel, lambda d, s: ({"order": "F"}, []), min_dims=2, min_side=2, label="ravel/F")
one(np.squeeze)
one(np.expand_dims, lambda d, s: ({}, [d(st.integers(-len(s) - 1, len(s)))]))
one(np.transpose, lambda d, s: ({}, [tuple(d(st.permutations(range(len(s)))))]))
one(np.swapaxes, lambda d, s: ({}, [ax(d, s, False), ax(d, s, False)]), min_dims=1)
one(np.moveaxis, lambda d, s: ({}, [ax(d, s, False), ax(d, s, False)]), min_dims=1)
one(np.flip, lambda d, s: ({"axis": ax(d, s)}, []), min_dims=1)
one(np.fliplr, min_dims=2)
one(np.flipud, min_dims=1)
one(np.rot90, lambda d, s: ({"k": d(st.integers(-3, 3)), "axes": (0, 1)}, []), min_dims=2)
one(np.roll, lambda d, s: ({"axis": ax(d, s)}, [d(st.integers(-4, 4))]), min_dims=1)
one(np.atleast_1d, max_dims=2)
one(np.atleast_2d, max_dims=3)
one(np.atleast_3d, max_dims=3)
one(np.tril, lambda d, s: ({"k": d(st.integers(-2, 2))}, []), min_dims=2)
one(np.triu, lambda d, s: ({"k": d(st.integers(-2, 2))}, []), min_dims=2)
one(np.diag, lambda d, s: ({"k": d(st.integers(-2, 2))}, []), min_dims=1, max_dims=2, label="diag")
one(np.diagflat, lambda d, s: ({"k": d(st.integers(-2, 2))}, []), max_dims=2)
one(np.tile, lambda d, s: ({}, [tuple(d(st.lists(st.integers(1, 3), min_size=1, max_size=3)))]))
one(np.repeat, lambda d, s: ({"axis": ax(d, s)}, [d(st.integers(1, 3))]), min_dims=1)
one(np.broadcast_to, lambda d, s: ({}, [(2,) + tuple(s)]), label="broadcast_to")
one(np.sort, lambda d, s: ({"axis": ax(d, s)}, []), min_dims=1, max_side=4)
one(np.partition, lambda d, s: ({"axis": -1}, [d(st.integers(0, s[-1] - 1))]), min_dims=1, max_side=4)
one(cast, lambda d, s: ({}, [np.float64]))


@spec(np.repeat, label="repeat(array repeats)")
def _repeat_array(draw, rng):
    shp = shape(draw, min_dims=1)
    axis = axis_of(draw, len(shp), none=False)
    return [values(rng, shp), draw(st.lists(st.integers(0, 3), min_size=shp[axis], max_size=shp[axis]))], \
        {"axis": axis}


@spec(np.pad)
def _pad(draw, rng):
    shp = shape(draw, min_dims=1, min_side=2)
    mode = draw(st.sampled_from(["constant", "edge", "reflect", "symmetric", "wrap"]))
    width = draw(st.one_of(st.integers(0, 2), st.just([(1, 0)] * len(shp)), st.just([(0, 2)] * len(shp))))
    return [values(rng, shp), width], {"mode": mode}


@spec(np.append, argnums=(0, 1))
def _append(draw, rng):
    shp = shape(draw, min_dims=1)
    axis = axis_of(draw, len(shp))
    other = shp if axis is None else tuple(2 if i == axis % len(shp) else n for i, n in enumerate(shp))
    return [values(rng, shp), values(rng, other)], {"axis": axis}


@spec(np.linspace, argnums=(0, 1))
def _linspace(draw, rng):
    s0, s1 = broadcast_shapes(draw, 2, max_dims=2)
    nd = len(np.broadcast_shapes(s0, s1)) + 1
    return [values(rng, s0), values(rng, s1), draw(st.integers(1, 5))], \
        {"endpoint": draw(st.booleans()), "axis": draw(st.integers(-nd, nd - 1))}


@spec(operator.getitem)
def _getitem(draw, rng):
    shp = shape(draw, min_dims=1, max_side=4)
    idx = draw(st.sampled_from([0, -1, slice(1, None), (Ellipsis, 0), np.array([0, 0, -1])]))
    return [values(rng, shp), idx], {}


@spec(np.take)
def _take(draw, rng):
    shp = shape(draw, min_dims=1)
    axis = axis_of(draw, len(shp))
    n = int(np.prod(shp)) if axis is None else shp[axis]
    return [values(rng, shp), np.array(draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=4)))], \
        {"axis": axis}


@spec(gather)
def _gather(draw, rng):
    shp = shape(draw, min_dims=1)
    return [values(rng, shp), np.array(draw(st.lists(st.integers(0, shp[0] - 1), min_size=1, max_size=4)))], {}


@spec(gather, label="gather batch_dims")
def _gather_batched(draw, rng):
    """batch_dims of 1 or 2, axis at or past them (TF's layout: params.shape[:axis] +
    indices.shape[batch_dims:] + params.shape[axis + 1:])."""
    shp = shape(draw, min_dims=3, max_dims=4, max_side=3)
    batch_dims = draw(st.integers(1, len(shp) - 2))
    axis = draw(st.integers(batch_dims, len(shp) - 1))
    idx_shape = shp[:batch_dims] + tuple(draw(st.lists(st.integers(1, 3), min_size=0, max_size=2)))
    return [values(rng, shp), rng.integers(0, shp[axis], size=idx_shape)], {"axis": axis, "batch_dims": batch_dims}


@spec(np.take_along_axis)
def _take_along_axis(draw, rng):
    shp = shape(draw, min_dims=1)
    axis = axis_of(draw, len(shp), none=False)
    idx_shape = tuple(draw(st.integers(1, 4)) if i == axis % len(shp) else n for i, n in enumerate(shp))
    return [values(rng, shp), rng.integers(0, shp[axis], size=idx_shape), axis], {}


# --- joining and splitting -------------------------------------------------------------------------

def joined(fn, promote):
    def make(draw, rng):
        base = shape(draw, min_dims=1, max_dims=3)
        n = draw(st.integers(1, 3))
        arrays = []
        for _ in range(n):
            s = list(base)
            s[promote(len(s))] = draw(st.integers(1, 3))
            arrays.append(values(rng, tuple(s)))
        return [arrays], {}
    add(fn, make, second=False, why="sequence arguments: first order only")


joined(np.concatenate, lambda nd: 0)
joined(np.hstack, lambda nd: 0 if nd == 1 else 1)
joined(np.vstack, lambda nd: 0)
if hasattr(np, "row_stack"):
    joined(np.row_stack, lambda nd: 0)


def same_or_along(fn, low_ndims, axis):
    """Arrays of one shape with fewer than 3 (dstack) or 2 (column_stack) dimensions, or of
    ``axis + 1`` dimensions differing along ``axis``."""
    def make(draw, rng):
        n = draw(st.integers(1, 3))
        if draw(st.booleans()):
            shp = shape(draw, min_dims=low_ndims[0], max_dims=low_ndims[1])
            return [[values(rng, shp) for _ in range(n)]], {}
        base = list(shape(draw, min_dims=axis + 1, max_dims=axis + 1))
        arrays = []
        for _ in range(n):
            base[axis] = draw(st.integers(1, 3))
            arrays.append(values(rng, tuple(base)))
        return [arrays], {}
    add(fn, make, second=False, why="sequence arguments: first order only")


same_or_along(np.dstack, (1, 2), 2)
same_or_along(np.column_stack, (1, 1), 1)


@spec(np.column_stack, label="column_stack of one array",
      why="np.column_stack(a) reads a's rows as its arrays (autograd's test_column_stack_1d)")
def _column_stack_array(draw, rng):
    return [values(rng, shape(draw, min_dims=1, max_dims=2))], {}


@spec(np.stack, second=False, why="sequence arguments: first order only")
def _stack(draw, rng):
    shp = shape(draw)
    return [[values(rng, shp) for _ in range(draw(st.integers(1, 3)))]], {"axis": draw(st.integers(-len(shp) - 1, len(shp)))}


@spec(np.array, second=False, why="sequence arguments: first order only")
def _array(draw, rng):
    shp = shape(draw)
    return [[values(rng, shp) for _ in range(draw(st.integers(1, 3)))]], {}


@spec(np.asarray, second=False, why="np.asarray cannot return a tensor (numpy's protocol): the tape refuses it")
def _asarray(draw, rng):
    return [values(rng, shape(draw))], {}


def split(fn, axis_for):
    def make(draw, rng):
        shp = shape(draw, min_dims={np.dsplit: 3, np.vsplit: 2}.get(fn, 1), min_side=2, max_side=4)
        axis = axis_for(shp)
        n = shp[axis]
        sections = draw(st.one_of(st.sampled_from([d for d in (1, 2, 4) if n % d == 0]),
                                  st.lists(st.integers(0, n), min_size=1, max_size=2).map(sorted)))
        args = [values(rng, shp), sections]
        return (args + [axis], {}) if fn is np.split else (args, {})
    add(fn, make)


split(np.split, lambda s: len(s) - 1)
split(np.hsplit, lambda s: 0 if len(s) == 1 else 1)
split(np.vsplit, lambda s: 0)
split(np.dsplit, lambda s: 2)


@spec(np.array_split)
def _array_split(draw, rng):
    shp = shape(draw, min_dims=1, min_side=2, max_side=4)
    return [values(rng, shp), draw(st.integers(1, 3)), len(shp) - 1], {}


@spec(np.delete)
def _delete(draw, rng):
    shp = shape(draw, min_dims=1, min_side=2)
    axis = axis_of(draw, len(shp))
    n = int(np.prod(shp)) if axis is None else shp[axis]
    return [values(rng, shp), draw(st.lists(st.integers(0, n - 1), max_size=2, unique=True))], {"axis": axis}


@spec(np.compress, argnums=(1,))
def _compress(draw, rng):
    shp = shape(draw, min_dims=1)
    axis = axis_of(draw, len(shp))
    n = int(np.prod(shp)) if axis is None else shp[axis]
    return [rng.uniform(size=n) > 0.4, values(rng, shp)], {"axis": axis}


@spec(np.extract, argnums=(1,))
def _extract(draw, rng):
    shp = shape(draw)
    return [rng.uniform(size=shp) > 0.4, values(rng, shp)], {}


@spec(np.choose, argnums=(1,), second=False, why="sequence arguments: first order only")
def _choose(draw, rng):
    sa, s1, s2 = broadcast_shapes(draw, 3)
    return [rng.integers(0, 2, size=sa), [values(rng, s1), values(rng, s2)]], {}


@spec(np.resize)
def _resize(draw, rng):
    return [values(rng, shape(draw, min_dims=1)), tuple(draw(st.lists(st.integers(1, 4), min_size=1, max_size=2)))], {}


@spec(np.rollaxis)
def _rollaxis(draw, rng):
    shp = shape(draw, min_dims=1)
    nd = len(shp)
    return [values(rng, shp), draw(st.integers(-nd, nd - 1)), draw(st.integers(-nd, nd))], {}


@spec(np.full_like, argnums=(1,), second=False, why="np.full_like does not dispatch on fill_value: the tape refuses it")
def _full_like(draw, rng):
    shp = shape(draw)
    return [np.zeros(shp), values(rng, ())], {}


def spaced(fn, lo, hi, **extra):
    def make(draw, rng):
        s0, s1 = broadcast_shapes(draw, 2, max_dims=2)
        nd = len(np.broadcast_shapes(s0, s1)) + 1
        return [values(rng, s0, lo, hi), values(rng, s1, lo, hi), draw(st.integers(1, 5))], \
            dict(endpoint=draw(st.booleans()), axis=draw(st.integers(-nd, nd - 1)), **extra)
    add(fn, make, argnums=(0, 1))


spaced(np.logspace, -1, 1, base=3.0)
spaced(np.geomspace, 0.5, 3)

if hasattr(np, "unstack"):
    @spec(np.unstack)
    def _unstack_np(draw, rng):
        shp = shape(draw, min_dims=1)
        return [values(rng, shp)], {"axis": axis_of(draw, len(shp), none=False)}

if hasattr(np, "matrix_transpose"):
    one(np.matrix_transpose, min_dims=2)

if hasattr(np, "astype"):
    one(np.astype, lambda d, s: ({}, [np.float64]))


@spec(np.trim_zeros)
def _trim_zeros(draw, rng):
    n = draw(st.integers(1, 5))
    # (leading or trailing zeros would change the result's length under finite differences)
    return [values(rng, (n,), 0.2, 2, signed=True), draw(st.sampled_from(["fb", "f", "b"]))], {}


@spec(np.lib.stride_tricks.sliding_window_view)
def _sliding_window_view(draw, rng):
    shp = shape(draw, min_dims=1, max_side=4)
    axis = axis_of(draw, len(shp), none=False)
    return [values(rng, shp), draw(st.integers(1, shp[axis]))], {"axis": axis}


one(np.asarray_chkfinite, second=False, why="numpy returns a plain ndarray: the tape refuses tensors")
one(np.unique)
