"""Array ops TF users reach for, built from recorded primitives: ``sort``/``argsort``, ``repeat``,
``roll``, ``sequence_mask``, ``slice``, ``scatter_nd`` and ``tensor_scatter_nd_add``/``_update``.

The permutation or index pattern is computed with numpy (it carries no gradient); values move
with ``gather`` (whose adjoint is scatter-add) or with scatter-add itself (whose adjoint is
indexing), so gradients come from rules that are already tested.
"""

import numpy as np

from ..engine import errors
from .math_ops import _np, _t, gather, reshape, where
from ..rules.support import scatter_add
from ..engine.dtypes import as_dtype
from ..engine.tensor import _TensorBase, _wrap, apply

__all__ = ["sort", "argsort", "repeat", "roll", "sequence_mask", "slice", "scatter_nd",
           "tensor_scatter_nd_add", "tensor_scatter_nd_update"]


def _order(v, axis, direction):
    """Stable sort indices along ``axis``: equal values keep their order, both directions (TF)."""
    if direction not in ("ASCENDING", "DESCENDING"):
        raise ValueError(f"direction must be 'ASCENDING' or 'DESCENDING', got {direction!r}")
    if direction == "ASCENDING":
        return np.argsort(v, axis=axis, kind="stable")
    # a stable ascending sort of the reversed axis, read backwards: descending, ties by index
    n = v.shape[axis]
    rev = np.argsort(np.flip(v, axis), axis=axis, kind="stable")
    return n - 1 - np.flip(rev, axis)


def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    v = np.asarray(_np(_t(values)))
    return _wrap(_order(v, axis, direction).astype(np.int32))


def sort(values, axis=-1, direction="ASCENDING", name=None):
    """The sorted values; the gradient goes back to where each value came from."""
    x = _t(values)
    idx = _order(np.asarray(x._value), axis, direction)
    return _take_along(x, idx, axis)


def _take_along(x, idx, axis):
    """``np.take_along_axis`` as one gather over the flattened tensor."""
    axis = axis % x.ndim
    grid = list(np.indices(idx.shape, sparse=True))
    grid[axis] = idx
    flat = np.ravel_multi_index(tuple(grid), x.shape)
    return gather(reshape(x, [-1]), flat)


def repeat(input, repeats, axis=None, name=None):  # noqa: A002 (TF's name)
    """Each element (or slice along ``axis``) repeated ``repeats`` times, in place."""
    x = _t(input)
    if axis is None:
        x, axis = reshape(x, [-1]), 0
    axis = int(_np(axis)) % x.ndim
    n = x.shape[axis]
    reps = np.asarray(_np(repeats)).astype(np.int64)
    if reps.ndim and reps.size not in (1, n):
        raise errors.InvalidArgumentError(
            f"repeats has {reps.size} entries but axis {axis} has {n}: give one count, or one per slice")
    return gather(x, np.repeat(np.arange(n), reps.reshape(-1) if reps.ndim else int(reps)), axis=axis)


def roll(input, shift, axis, name=None):  # noqa: A002
    """Elements shifted along ``axis`` (ints or lists of them), wrapping around."""
    x = _t(input)
    shifts, axes = np.atleast_1d(_np(shift)), np.atleast_1d(_np(axis))
    if shifts.shape != axes.shape:
        raise errors.InvalidArgumentError("shift and axis must have the same number of entries")
    for s, ax in zip(shifts.tolist(), axes.tolist()):
        n = x.shape[ax]
        if n:
            x = gather(x, (np.arange(n) - int(s)) % n, axis=int(ax) % x.ndim)
    return x


def sequence_mask(lengths, maxlen=None, dtype=None, name=None):
    """``mask[..., j] = j < lengths[...]``; ``maxlen`` defaults to the largest length."""
    lens = np.asarray(_np(lengths))
    n = int(lens.max()) if maxlen is None and lens.size else int(_np(maxlen or 0))
    mask = np.arange(n) < lens[..., None]
    return _wrap(mask if dtype is None else mask.astype(as_dtype(dtype)._np))


def _nd_index(indices, shape):
    idx = np.asarray(_np(indices))
    if idx.dtype.kind not in "iu":
        raise TypeError(f"indices must be an integer tensor, got dtype {idx.dtype}")
    k = idx.shape[-1]
    for d in range(k):
        bad = (idx[..., d] < 0) | (idx[..., d] >= shape[d])
        if bad.any():
            raise errors.InvalidArgumentError(
                f"indices {idx[..., d][bad].reshape(-1)[0]} does not index into shape {list(shape)} "
                f"(dimension {d} has size {shape[d]}): give indices within the shape")
    return tuple(np.moveaxis(idx, -1, 0))


def scatter_nd(indices, updates, shape, name=None):
    """A zero tensor of ``shape`` with ``updates`` added at ``indices`` (duplicates add up)."""
    updates = _t(updates)
    shape = tuple(int(d) for d in np.asarray(_np(shape)).reshape(-1))
    template = np.zeros(shape, dtype=updates._value.dtype)
    return apply(scatter_add, (updates, template, _nd_index(indices, shape)))


def _like(updates, tensor):
    """Python or numpy updates take ``tensor``'s dtype, as TF converts an op's inputs that share one."""
    return updates if isinstance(updates, _TensorBase) else _wrap(np.asarray(updates, dtype=tensor._value.dtype))


def tensor_scatter_nd_add(tensor, indices, updates, name=None):
    tensor = _t(tensor)
    return tensor + scatter_nd(indices, _like(updates, tensor), tensor.shape)


def tensor_scatter_nd_update(tensor, indices, updates, name=None):
    """``tensor`` with the entries at ``indices`` replaced by ``updates``."""
    tensor = _t(tensor)
    updates = _like(updates, tensor)
    idx = _nd_index(indices, tuple(tensor.shape))
    hit = np.zeros(tuple(tensor.shape), dtype=bool)
    hit[idx] = True
    return where(hit, scatter_nd(indices, updates, tensor.shape), tensor)


_slice = slice


def slice(input_, begin, size, name=None):  # noqa: A001 (TF's name)
    """``tf.slice``: ``size[i] == -1`` takes everything from ``begin[i]`` on; a recorded index."""
    x = _t(input_)
    b = [int(v) for v in np.asarray(_np(begin)).reshape(-1)]
    n = [int(v) for v in np.asarray(_np(size)).reshape(-1)]
    if len(b) != x.ndim or len(n) != x.ndim:
        raise errors.InvalidArgumentError(
            f"Expected begin and size arguments to be 1-D tensors of size {x.ndim}, but got shapes "
            f"[{len(b)}] and [{len(n)}] instead.")
    for d, (start, count) in enumerate(zip(b, n)):
        stop = x.shape[d] if count == -1 else start + count
        if start < 0 or count < -1 or stop > x.shape[d]:
            raise errors.InvalidArgumentError(
                f"Expected size[{d}] in [0, {x.shape[d] - start}], but got {count}" if start >= 0 else
                f"Expected begin[{d}] in [0, {x.shape[d]}], but got {start}")
    index = tuple(_slice(start, x.shape[d] if count == -1 else start + count)
                  for d, (start, count) in enumerate(zip(b, n)))
    return x[index]
