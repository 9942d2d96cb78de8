"""``gather``: rows (or slices along an axis) of ``params`` picked by integer ``indices``.

A primitive of its own (rather than ``np.take``) so the tape can recognise it: TensorFlow
returns the gradient of a gather along axis 0 with respect to a source as ``IndexedSlices``.
The rule itself is dense (a scatter-add; repeated indices accumulate), so the transpiler and
every non-source path see an ordinary array.
"""

import numpy as np

from .registry import define, primitive
from .support import scatter_add, shape_of


def gather_index(indices, axis, batch_dims, shape):
    """The index tuple with ``params[gather_index(...)] == gather(params, indices, ...)`` for params
    of ``shape``.

    With ``batch_dims`` > 0 every dimension up to ``axis`` is indexed by an array (an arange for
    the batch and the middle dimensions), shaped so that numpy's broadcast gives TensorFlow's layout:
    params.shape[:axis] + indices.shape[batch_dims:] + params.shape[axis + 1:].
    """
    axis = axis % len(shape)
    if batch_dims == 0:
        return (slice(None),) * axis + (indices,)
    if axis < batch_dims:
        raise ValueError(f"gather: axis ({axis}) must be at least batch_dims ({batch_dims}), as in TensorFlow")
    indices = np.asarray(indices)
    rest = indices.shape[batch_dims:]
    rank = axis + len(rest)
    index = []
    for d in range(axis):
        at = [1] * rank
        at[d] = shape[d]
        index.append(np.arange(shape[d]).reshape(at))
    return tuple(index) + (np.reshape(indices, indices.shape[:batch_dims] + (1,) * (axis - batch_dims) + rest),)


@primitive
def gather(params, indices, axis=0, batch_dims=0):
    params = np.asarray(params)
    return params[gather_index(indices, axis, batch_dims, params.shape)]


def gather_vjp(g, ans, params, indices, axis=0, batch_dims=0):
    return scatter_add(g, params, gather_index(indices, axis, batch_dims, shape_of(params)))


def gather_jvp(t, ans, params, indices, axis=0, batch_dims=0):
    return gather(t, indices, axis, batch_dims)


define(gather, vjp=(gather_vjp, None), jvp=(gather_jvp, None))
