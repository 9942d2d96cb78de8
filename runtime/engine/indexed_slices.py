"""``tf.IndexedSlices``: the sparse gradient of a gather along axis 0.

``dense[indices[i], ...] += values[i, ...]`` (repeated indices are kept, and add up when the
slices are made dense).  Adding two IndexedSlices concatenates them, as TensorFlow's gradient
aggregation does; adding a dense gradient gives a dense result.  Any other arithmetic with a
tensor (``slices - t``, ``t * slices``) works on the dense tensor, as TF's conversion does, and
stays on the tape, so higher derivatives flow through it.
"""

import numpy as np

from ..rules.support import scatter_add
from .dtypes import as_dtype
from .shapes import TensorShape
from .tensor import OPERAND_CONVERTERS, Tensor, _TensorBase, _wrap

__all__ = ["IndexedSlices", "to_dense"]


class IndexedSlices:
    """A sparse representation of a set of tensor slices at given indices."""

    def __init__(self, values, indices, dense_shape=None):
        self._values = values
        self._indices = indices
        self._dense_shape = dense_shape

    values = property(lambda self: self._values)
    indices = property(lambda self: self._indices)
    dense_shape = property(lambda self: self._dense_shape)

    @property
    def dtype(self):
        return as_dtype(_raw(self._values).dtype)

    @property
    def shape(self):
        if self._dense_shape is None:
            return TensorShape(None)
        return TensorShape(np.asarray(_raw(self._dense_shape)).tolist())

    @property
    def device(self):
        return "/job:localhost/replica:0/task:0/device:CPU:0"

    @property
    def name(self):
        return None

    def __repr__(self):
        shape = f", dense_shape={self._dense_shape}" if self._dense_shape is not None else ""
        return f"IndexedSlices(\nindices={self._indices},\nvalues={self._values}{shape}\n)"

    def __neg__(self):
        return IndexedSlices(-self._values, self._indices, self._dense_shape)

    def __add__(self, other):
        if isinstance(other, IndexedSlices):
            return _concat(self, other)
        if other is None:
            return self
        return to_dense(self) + other

    def __radd__(self, other):
        if other is None:
            return self
        return other + to_dense(self)

    def __mul__(self, other):
        if isinstance(other, _TensorBase):
            return dense_tensor(self) * other
        if isinstance(other, np.ndarray) and other.ndim:
            return NotImplemented  # numpy's reflected operator multiplies the dense array
        return IndexedSlices(self._values * other, self._indices, self._dense_shape)

    __rmul__ = __mul__

    def __array__(self, dtype=None, copy=None):
        dense = np.asarray(_raw(to_dense(self)))
        return dense if dtype is None else dense.astype(dtype)

    def numpy(self):
        return np.asarray(_raw(to_dense(self)))

    def __getitem__(self, idx):
        # a slice of a *batch* of IndexedSlices (used by batched sweeps): not a TF API
        raise TypeError("'IndexedSlices' object is not subscriptable")


def _raw(x):
    return x._value if isinstance(x, _TensorBase) else x


def _concat(a, b):
    values = np.concatenate([a._values, b._values], axis=0)
    indices = np.concatenate([_raw(a._indices), _raw(b._indices)], axis=0)
    return IndexedSlices(values, _wrap(indices) if isinstance(a._indices, _TensorBase) else indices,
                         a._dense_shape)


def to_dense(s):
    """The dense array (or Tensor, when the values are tensors) an IndexedSlices stands for."""
    shape = tuple(int(d) for d in np.asarray(_raw(s._dense_shape)))
    return scatter_add(s._values, np.empty(shape, dtype=np.int8), _raw(s._indices))


def dense_tensor(s):
    """The dense Tensor of ``s``, recorded on the tapes that recorded its values."""
    dense = to_dense(s)
    return dense if isinstance(dense, _TensorBase) else _wrap(np.asarray(dense))


OPERAND_CONVERTERS[IndexedSlices] = dense_tensor


def as_public(s):
    """Values, indices and dense_shape as Tensors (what ``tape.gradient`` hands back)."""
    values = s._values if type(s._values) is Tensor else _wrap(np.asarray(_raw(s._values)))
    indices = s._indices if isinstance(s._indices, _TensorBase) else _wrap(np.asarray(s._indices))
    shape = s._dense_shape if isinstance(s._dense_shape, _TensorBase) else _wrap(
        np.asarray(s._dense_shape, dtype=np.int32))
    return IndexedSlices(values, indices, shape)
