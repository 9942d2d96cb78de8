"""numpy twins of ``tf.*`` array functions: indexing, selecting, splitting, sorting, segments
(see ops.py for what a twin is)."""

import numpy as np

from runtime.ops import math_extra
from runtime.rules.registry import nondifferentiable
from runtime.rules.support import dtype_of

from .ops import axis_, one_hot_, ones_, value_, where_true_

__all__ = ["transpose", "gather", "where", "one_hot", "fill", "linspace", "split", "split_points_", "unstack",
           "sort", "boolean_mask", "slice_of", "slices_", "gather_nd", "roll", "repeat", "top_k", "top_k_indices_",
           "unsorted_segment_sum", "segment_sum", "unsorted_segment_mean", "segment_mean",
           "membership_", "segment_sizes_", "reverse", "pad"]


def transpose(a, perm=None, conjugate=False, name=None):
    out = np.transpose(a, axis_(perm))
    if conjugate:
        out = np.conj(out)
    return out


def gather(params, indices, validate_indices=None, axis=None, name=None):
    return np.take(params, indices, axis=0 if axis is None else axis)


def where(condition, x=None, y=None, name=None):
    """A select; alone, the int64 coordinates of the true entries (a constant)."""
    if x is None and y is None:
        return where_true_(condition)
    return np.where(condition, x, y)


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """The runtime's one-hot constant; an ``on_value``/``off_value`` given (maybe differentiated)
    is selected into it, so its gradient is the sum over the entries that hold it."""
    if on_value is None and off_value is None:
        return one_hot_(indices, depth, axis=axis, dtype=dtype)
    hot = one_hot_(indices, depth, axis=axis, dtype=np.bool_)
    return np.where(hot, 1.0 if on_value is None else on_value, 0.0 if off_value is None else off_value)


def fill(dims, value, name=None):
    return value * ones_(dims, dtype=dtype_of(value))


def linspace(start, stop, num, name=None, axis=0):
    return np.linspace(start, stop, num, axis=axis)


def split(value, num_or_size_splits, axis=0, num=None, name=None):
    return np.split(value, split_points_(value, num_or_size_splits, axis), axis=axis)


def split_points_(value, num_or_size_splits, axis):
    """np.split's sections for TF's count or list of sizes (one of them may be -1)."""
    sizes = value_(num_or_size_splits)
    if sizes.ndim == 0:
        return int(sizes)
    sizes = [int(v) for v in sizes]
    if -1 in sizes:
        sizes[sizes.index(-1)] = np.shape(value)[axis] - (sum(sizes) + 1)
    return [int(v) for v in np.cumsum(sizes)[:-1]]


def unstack(value, num=None, axis=0, name=None):
    return [np.take(value, i, axis=axis) for i in range(np.shape(value)[axis])]


def sort(values, axis=-1, direction="ASCENDING", name=None):
    ordered = np.sort(values, axis=axis)
    if direction == "DESCENDING":
        ordered = np.flip(ordered, axis)
    return ordered


def boolean_mask(tensor, mask, axis=None, name=None):
    if axis is None or axis == 0:
        return tensor[value_(mask).astype(bool)]
    return np.compress(np.ravel(value_(mask)).astype(bool), tensor, axis=axis)


def slice_of(input_, begin, size, name=None):
    """``tf.slice`` (not named ``slice``: generated code of this module calls the builtin)."""
    return input_[slices_(input_, begin, size)]


def slices_(input_, begin, size):
    """TF's begin/size (a size of -1 takes the rest) as a tuple of slices."""
    starts = [int(v) for v in np.ravel(value_(begin))]
    sizes = [int(v) for v in np.ravel(value_(size))]
    return tuple(slice(b, n if c == -1 else b + c) for b, c, n in zip(starts, sizes, np.shape(input_)))


def gather_nd(params, indices, name=None):
    return params[tuple(np.moveaxis(value_(indices), -1, 0))]


def roll(input, shift, axis, name=None):
    return np.roll(input, shift, axis)


def repeat(input, repeats, axis=None, name=None):
    return np.repeat(input, repeats, axis=axis)


def top_k(input, k=1, sorted=True, name=None):
    """(values, indices) of the k largest entries along the last axis (ties: the lower index first)."""
    indices = top_k_indices_(input, k)
    return np.take_along_axis(input, indices, axis=-1), indices


def top_k_indices_(input, k):
    return value_(math_extra.top_k(input, k).indices)


def unsorted_segment_sum(data, segment_ids, num_segments, name=None):
    """Sums of the rows of each segment, as a product with the segments' 0/1 membership."""
    return np.tensordot(membership_(data, segment_ids, num_segments), data, axes=np.ndim(segment_ids))


def segment_sum(data, segment_ids, name=None):
    return np.tensordot(membership_(data, segment_ids, None), data, axes=np.ndim(segment_ids))


def unsorted_segment_mean(data, segment_ids, num_segments, name=None):
    """Segment sums over segment sizes; an empty segment is 0."""
    member = membership_(data, segment_ids, num_segments)
    total = np.tensordot(member, data, axes=np.ndim(segment_ids))
    return total / segment_sizes_(member, data, segment_ids)


def segment_mean(data, segment_ids, name=None):
    member = membership_(data, segment_ids, None)
    total = np.tensordot(member, data, axes=np.ndim(segment_ids))
    return total / segment_sizes_(member, data, segment_ids)


def membership_(data, segment_ids, num_segments):
    """[segment, *segment_ids.shape]: 1 where a row belongs to the segment (negative ids: nowhere)."""
    ids = value_(segment_ids)
    if ids.dtype.kind not in "iu":
        raise TypeError(f"segment_ids must be an integer tensor, got dtype {ids.dtype}")
    n = (int(ids.max()) + 1 if ids.size else 0) if num_segments is None else int(value_(num_segments))
    if ids.size and ids.max() >= n:
        raise ValueError(f"segment_ids must be below num_segments = {n}, got {int(ids.max())}")
    return np.moveaxis(ids[..., None] == np.arange(n), -1, 0).astype(dtype_of(data))


def segment_sizes_(member, data, segment_ids):
    """Rows per segment (at least 1), shaped to divide the segment sums."""
    sizes = np.maximum(np.sum(member.reshape(member.shape[0], -1), axis=1), 1)
    return sizes.reshape((-1,) + (1,) * (np.ndim(data) - np.ndim(segment_ids)))


def reverse(tensor, axis, name=None):
    return np.flip(tensor, axis_(axis))


def pad(tensor, paddings, mode="CONSTANT", constant_values=0, name=None):
    """Constant padding only (``mode='CONSTANT'``, as the runtime's ``tf.pad``)."""
    return np.pad(tensor, paddings, constant_values=constant_values)


nondifferentiable(slices_, split_points_, top_k_indices_, membership_, segment_sizes_)
