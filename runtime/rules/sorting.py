"""Rules for sorting and gathering along an axis: sort, partition, take_along_axis.

A sort is a permutation of the elements: the VJP applies the inverse permutation to the
cotangent, the JVP the permutation to the tangent.  Ties are measure-zero; their elements'
gradients follow the order the sort put them in.
"""

import numpy as np

from .registry import define, nondifferentiable
from .support import scatter_add, shape_of, value_of


def inverse_order(order, axis):
    """The inverse of the permutations ``order`` along ``axis``: what ``np.argsort(order, axis)``
    gives, by one O(n) scatter instead of a sort."""
    order = value_of(order)
    ax = axis % order.ndim
    shape = [1] * order.ndim
    shape[ax] = order.shape[ax]
    positions = np.broadcast_to(np.reshape(np.arange(order.shape[ax]), shape), order.shape)
    out = np.empty_like(order)
    np.put_along_axis(out, order, positions, axis=ax)
    return out


nondifferentiable(inverse_order)     # integer positions: constants when rules are differentiated again


def along_axis_index(indices, axis, shape):
    """The advanced index that makes ``x[index]`` equal ``np.take_along_axis(x, indices, axis)``."""
    ndim = len(shape)
    axis = axis % ndim
    index = []
    for d in range(ndim):
        if d == axis:
            index.append(indices)
        else:
            dims = [1] * ndim
            dims[d] = shape[d]
            index.append(np.reshape(np.arange(shape[d]), dims))
    return tuple(index)


def take_along_axis_vjp(g, ans, arr, indices, axis=-1):
    if axis is None:
        return np.reshape(scatter_add(g, np.ravel(arr), (indices,)), shape_of(arr))
    full = np.broadcast_shapes(shape_of(arr)[:axis % np.ndim(arr)] + (1,) + shape_of(arr)[axis % np.ndim(arr) + 1:],
                               np.shape(indices))
    return scatter_add(g, arr, along_axis_index(np.broadcast_to(indices, full), axis, shape_of(arr)))


def take_along_axis_jvp(t, ans, arr, indices, axis=-1):
    return np.take_along_axis(t, indices, axis=axis)


define(np.take_along_axis, vjp=(take_along_axis_vjp, None), jvp=(take_along_axis_jvp, None))


def sort_vjp(g, ans, a, axis=-1, kind=None, order=None, stable=None):
    x = np.ravel(a) if axis is None else a
    ax = 0 if axis is None else axis
    inverse = inverse_order(np.argsort(x, axis=ax, kind="stable"), ax)
    return np.reshape(np.take_along_axis(g, inverse, axis=ax), shape_of(a))


def sort_jvp(t, ans, a, axis=-1, kind=None, order=None, stable=None):
    x = np.ravel(a) if axis is None else a
    tx = np.ravel(t) if axis is None else t
    ax = 0 if axis is None else axis
    return np.take_along_axis(tx, np.argsort(x, axis=ax, kind="stable"), axis=ax)


define(np.sort, vjp=(sort_vjp,), jvp=(sort_jvp,))


# np.partition leaves the elements on each side of the k-th in an unspecified order (numpy's
# argpartition does not reproduce it), so the source of each output element is found by matching
# sorted values: two sorts, an O(n log n) rule for an O(n) primal.  Tied values are interchangeable.
def partition_sources(ans, x, axis):
    """For each element of ``ans`` (a rearrangement of x along axis), the index in x it came from."""
    rank_ans = inverse_order(np.argsort(ans, axis=axis), axis)
    return np.take_along_axis(np.argsort(x, axis=axis), rank_ans, axis=axis)


def partition_vjp(g, ans, a, kth, axis=-1, kind="introselect", order=None):
    x = np.ravel(a) if axis is None else a
    ax = 0 if axis is None else axis
    sources = partition_sources(ans, x, ax)
    return np.reshape(np.take_along_axis(g, inverse_order(sources, ax), axis=ax), shape_of(a))


def partition_jvp(t, ans, a, kth, axis=-1, kind="introselect", order=None):
    x = np.ravel(a) if axis is None else a
    tx = np.ravel(t) if axis is None else t
    ax = 0 if axis is None else axis
    return np.take_along_axis(tx, partition_sources(ans, x, ax), axis=ax)


define(np.partition, vjp=(partition_vjp, None), jvp=(partition_jvp, None))


# np.unique (values only): without ties it is np.sort of the flattened array; each element
# receives the cotangent of the unique value it equals (the derivative moving all copies together).
def unique_flags(return_index, return_inverse, return_counts):
    if return_index or return_inverse or return_counts:
        raise NotImplementedError("np.unique derivatives cover the values only (return_index=, "
                                  "return_inverse=, return_counts= return index arrays: call np.unique "
                                  "on the values for those)")


def unique_vjp(g, ans, ar, return_index=False, return_inverse=False, return_counts=False, axis=None,
               equal_nan=True, sorted=True):
    unique_flags(return_index, return_inverse, return_counts)
    inverse = np.searchsorted(ans, np.ravel(ar))
    return np.reshape(g[inverse], shape_of(ar))


def unique_jvp(t, ans, ar, return_index=False, return_inverse=False, return_counts=False, axis=None,
               equal_nan=True, sorted=True):
    unique_flags(return_index, return_inverse, return_counts)
    order = np.argsort(np.ravel(ar), kind="stable")
    first = np.searchsorted(np.ravel(ar)[order], ans)
    return np.ravel(t)[order][first]


define(np.unique, vjp=(unique_vjp,), jvp=(unique_jvp,))
