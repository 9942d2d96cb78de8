"""``tf.math`` ops users reach for that are built from other primitives: ``cumprod``, the segment
reductions, ``top_k``, ``multiply_no_nan`` and truncating division.

Each is a composition of recorded ops (products, ``gather``, the scatter-add that is gather's
adjoint, ``where``), so its gradient follows from rules that are already tested.
"""

import collections

import numpy as np

from ..engine import errors
from .math_ops import (
    _np, _t, gather, ones_like, reduce_max, stack, unstack,
)
from ..rules.arithmetic import mul_no_nan as _mul_no_nan
from ..rules.support import scatter_add
from ..engine.dtypes import int32
from ..engine.tensor import _binary, _wrap, apply

__all__ = ["cumprod", "segment_sum", "segment_mean", "segment_max", "segment_min",
           "unsorted_segment_sum", "unsorted_segment_mean", "unsorted_segment_max",
           "unsorted_segment_min", "top_k", "multiply_no_nan", "truncatediv", "truncatemod",
           "scalar_mul"]


def cumprod(x, axis=0, exclusive=False, reverse=False, name=None):
    """Running products along ``axis`` (``exclusive`` starts at 1; ``reverse`` runs backwards)."""
    x = _t(x)
    ax = int(_np(axis)) % max(x.ndim, 1)
    if x.shape[ax] == 0:
        return x
    parts = unstack(x, axis=ax)
    if reverse:
        parts = parts[::-1]
    if exclusive:
        parts = [ones_like(parts[0])] + parts[:-1]
    out = [parts[0]]
    for p in parts[1:]:
        out.append(out[-1] * p)
    if reverse:
        out = out[::-1]
    return stack(out, axis=ax)


def _segment_ids(data, segment_ids, num_segments=None):
    ids = np.asarray(_np(segment_ids))
    if ids.dtype.kind not in "iu":
        raise TypeError(f"segment_ids must be an integer tensor, got dtype {ids.dtype}")
    if tuple(ids.shape) != tuple(data.shape[:ids.ndim]):
        raise errors.InvalidArgumentError(
            f"segment_ids.shape = {list(ids.shape)} does not equal a prefix of data.shape = "
            f"{list(data.shape)}")
    n = (int(ids.max()) + 1 if ids.size else 0) if num_segments is None else int(_np(num_segments))
    if ids.size and ids.max() >= n:
        raise errors.InvalidArgumentError(
            f"segment_ids must be below num_segments = {n}, got {int(ids.max())}")
    if ids.size and num_segments is None and ids.min() < 0:
        raise errors.InvalidArgumentError(f"segment_ids must be >= 0, got {int(ids.min())}")
    return ids, n


def unsorted_segment_sum(data, segment_ids, num_segments, name=None):
    """``out[s] = sum of data[i] with segment_ids[i] == s``; negative ids are dropped, as in TF."""
    data = _t(data)
    ids, n = _segment_ids(data, segment_ids, num_segments)
    keep = ids >= 0
    if not keep.all():  # TF drops rows whose id is negative
        data = gather(data, np.flatnonzero(keep)) if ids.ndim == 1 else _refuse_nd_drop()
        ids = ids[keep]
    template = np.zeros((n,) + tuple(data.shape[ids.ndim:]), dtype=data._value.dtype)
    return apply(scatter_add, (data, template, ids))


def _refuse_nd_drop():
    raise NotImplementedError("negative segment_ids are supported with 1-D segment_ids only")


def segment_sum(data, segment_ids, name=None):
    """``unsorted_segment_sum`` with sorted ids and ``num_segments = max(ids) + 1``."""
    data = _t(data)
    ids, n = _segment_ids(data, segment_ids)
    return unsorted_segment_sum(data, ids, n)


def _counts(ids, n, data):
    counts = np.bincount(ids[ids >= 0].reshape(-1), minlength=n).astype(data._value.dtype)
    return counts.reshape((n,) + (1,) * (data.ndim - ids.ndim))


def unsorted_segment_mean(data, segment_ids, num_segments, name=None):
    """Segment sums over segment sizes; an empty segment is 0."""
    data = _t(data)
    ids, n = _segment_ids(data, segment_ids, num_segments)
    counts = _counts(ids, n, data)
    return unsorted_segment_sum(data, ids, n) / np.maximum(counts, 1)


def segment_mean(data, segment_ids, name=None):
    data = _t(data)
    ids, n = _segment_ids(data, segment_ids)
    return unsorted_segment_mean(data, ids, n)


def _segment_extreme(data, ids, n, largest, empty_zero=False):
    """Per segment max (or min) of the rows; an empty segment gets the dtype's lowest (highest)
    value as TF's unsorted_segment_max (min) gives, or 0 as its segment_max (min) gives."""
    data = _t(data)
    sign = 1 if largest else -1
    rows = []
    for s in range(n):
        members = np.flatnonzero(ids.reshape(-1) == s) if ids.ndim == 1 else None
        if members is None:
            raise NotImplementedError("segment max/min support 1-D segment_ids only")
        if members.size == 0:
            fill = 0 if empty_zero else np.finfo(data._value.dtype).min if data.dtype.is_floating else \
                np.iinfo(data._value.dtype).min
            rows.append(_wrap(np.full(tuple(data.shape[1:]), sign * fill, dtype=data._value.dtype)))
        else:
            picked = gather(data, members) * sign
            rows.append(reduce_max(picked, axis=0) * sign)
    return stack(rows)


def unsorted_segment_max(data, segment_ids, num_segments, name=None):
    data = _t(data)
    ids, n = _segment_ids(data, segment_ids, num_segments)
    return _segment_extreme(data, ids, n, True)


def unsorted_segment_min(data, segment_ids, num_segments, name=None):
    data = _t(data)
    ids, n = _segment_ids(data, segment_ids, num_segments)
    return _segment_extreme(data, ids, n, False)


def segment_max(data, segment_ids, name=None):
    data = _t(data)
    ids, n = _segment_ids(data, segment_ids)
    return _segment_extreme(data, ids, n, True, empty_zero=True)


def segment_min(data, segment_ids, name=None):
    data = _t(data)
    ids, n = _segment_ids(data, segment_ids)
    return _segment_extreme(data, ids, n, False, empty_zero=True)


TopKV2 = collections.namedtuple("TopKV2", ["values", "indices"])


def top_k(input, k=1, sorted=True, index_type=int32, name=None):  # noqa: A002 (TF's names)
    """The ``k`` largest entries along the last axis and their indices (ties: lower index first)."""
    x = _t(input)
    k = int(_np(k))
    n = x.shape[-1]
    if not 0 <= k <= n:
        raise errors.InvalidArgumentError(f"input must have at least k={k} columns, has {n}")
    v = x._value
    # a stable ascending sort of the reversed row, read backwards: descending, ties by index
    order = np.argsort(v[..., ::-1], axis=-1, kind="stable")[..., ::-1]
    idx = (n - 1 - order[..., :k]).astype(np.dtype(index_type.as_numpy_dtype))
    # (1-D: indexing, not gather, whose gradient for a variable would be IndexedSlices; TF's is dense)
    values = gather(x, idx, batch_dims=x.ndim - 1) if x.ndim > 1 else x[idx]
    return TopKV2(values, _wrap(idx))


def multiply_no_nan(x, y, name=None):
    """``x * y``, but 0 wherever ``y`` is 0 (even if ``x`` is inf or NaN); TF's gradients."""
    return _binary(_mul_no_nan, _t(x), _t(y))


def truncatediv(x, y, name=None):
    """Division rounded toward zero (C semantics); integers only get exact results. No gradient."""
    a, b = np.asarray(_np(_t(x))), np.asarray(_np(_t(y)))
    if a.dtype.kind in "iu":
        q = np.floor_divide(a, b)
        q = q + ((np.mod(a, b) != 0) & ((a < 0) != (b < 0)))
        return _wrap(q.astype(a.dtype)[()])
    return _wrap(np.trunc(a / b).astype(a.dtype)[()])


def truncatemod(x, y, name=None):
    """Remainder of truncating division (its sign is ``x``'s). No gradient, as in TF."""
    a, b = np.asarray(_np(_t(x))), np.asarray(_np(_t(y)))
    return _wrap(np.fmod(a, b).astype(a.dtype)[()])


def scalar_mul(scalar, x, name=None):
    """``scalar * x`` for a scalar ``scalar``."""
    if np.ndim(_np(scalar)) != 0:
        raise ValueError(f"scalar_mul needs a scalar, got shape {np.shape(_np(scalar))}")
    return _t(x) * scalar
