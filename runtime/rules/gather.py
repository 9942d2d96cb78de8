"""``gather``: rows (or slices along an axis) of ``params`` picked by integer ``indices``.

A primitive of its own (rather than ``np.take``) so the tape can recognise it: TensorFlow
returns the gradient of a gather along axis 0 with respect to a source as ``IndexedSlices``.
The rule itself is dense (a scatter-add; repeated indices accumulate), so the transpiler and
every non-source path see an ordinary array.
"""

import numpy as np

from .registry import define, primitive
from .support import scatter_add


def gather_index(indices, axis, batch_dims, ndim):
    """The index tuple with ``params[gather_index(...)] == gather(params, indices, ...)``.

    ``batch_dims`` > 0 needs ``axis == batch_dims`` (TensorFlow's default).
    """
    axis = axis % ndim
    if batch_dims == 0:
        return (slice(None),) * axis + (indices,)
    if axis != batch_dims:
        raise NotImplementedError("gather with batch_dims > 0 supports only axis == batch_dims")
    indices = np.asarray(indices)
    index = []
    for d in range(batch_dims):
        shape = [1] * indices.ndim
        shape[d] = indices.shape[d]
        index.append(np.arange(indices.shape[d]).reshape(shape))
    return tuple(index) + (indices,)


@primitive
def gather(params, indices, axis=0, batch_dims=0):
    params = np.asarray(params)
    return params[gather_index(indices, axis, batch_dims, params.ndim)]


def gather_vjp(g, ans, params, indices, axis=0, batch_dims=0):
    return scatter_add(g, params, gather_index(indices, axis, batch_dims, np.ndim(params)))


def gather_jvp(t, ans, params, indices, axis=0, batch_dims=0):
    return gather(t, indices, axis, batch_dims)


define(gather, vjp=(gather_vjp, None), jvp=(gather_jvp, None))
