"""``tf.Variable``: mutable state whose reads are tensors (trainable ones are watched on read), and
what ``assign`` returns."""

import itertools

import numpy as np

from ..rules.arithmetic import identity
from .conversion import _to_numpy
from .dtypes import as_dtype
from .shapes import TensorShape
from .tensor import Tensor, _TensorBase, apply
from .text import _numpy_text

__all__ = ["Variable", "ResourceVariable"]

_builtin_bool = bool

_variable_ids = itertools.count()

name_scopes = []
"""The enclosing ``tf.name_scope`` prefixes, innermost last (``'outer/inner/'``); a Variable's
name starts with the innermost one, as in TF (``scoped/k:0``)."""


class Variable(_TensorBase):
    """``tf.Variable``: mutable state whose reads are tensors; trainable ones are watched on read."""

    __slots__ = ("_value", "_name", "_trainable", "_uid", "_constraint", "__weakref__", "__dict__")

    def __init__(self, initial_value=None, trainable=None, validate_shape=True, caching_device=None,
                 name=None, variable_def=None, dtype=None, import_scope=None, constraint=None,
                 synchronization=None, aggregation=None, shape=None, **kwargs):
        if initial_value is None:
            raise ValueError("initial_value must be specified, e.g. tf.Variable(0.0) or tf.Variable(tf.zeros([3])).")
        if callable(initial_value) and not isinstance(initial_value, _TensorBase):
            initial_value = initial_value()
        value = _to_numpy(initial_value, dtype)
        if isinstance(value, np.ndarray):
            value = value.copy()
        self._value = value
        self._name = (name_scopes[-1] if name_scopes else "") + (name or "Variable")
        self._trainable = True if trainable is None else _builtin_bool(trainable)
        self._uid = next(_variable_ids)
        self._constraint = constraint

    name = property(lambda self: f"{self._name}:0")
    trainable = property(lambda self: self._trainable)
    constraint = property(lambda self: self._constraint)

    def value(self):
        return self.read_value()

    def read_value(self):
        """A tensor holding the current value (connected to the variable on recording tapes)."""
        return apply(identity, (self,))

    def _same_dtype(self, value, method):
        if isinstance(value, _TensorBase) and value._value.dtype != self._value.dtype:
            raise ValueError(
                f"Cannot {method} a tensor of dtype {value._value.dtype.name} to variable '{self.name}' of dtype "
                f"{self._value.dtype.name}: convert it first, e.g. "
                f"v.{method}(tf.cast(value, {as_dtype(self._value.dtype)!r})).")

    def assign(self, value, use_locking=None, name=None, read_value=True):
        self._same_dtype(value, "assign")
        new = _to_numpy(value, self._value.dtype)
        if np.shape(new) != np.shape(self._value):
            raise ValueError(
                f"Cannot assign value to variable ' {self.name}': Shape mismatch.The variable shape "
                f"{self.shape}, and the assigned value shape {TensorShape(np.shape(new))} are incompatible. "
                f"Assign a value of shape {self.shape}, or create a new tf.Variable for the new shape."
            )
        self._value = np.array(new, copy=True) if isinstance(new, np.ndarray) else new
        return _UnreadVariable(self) if read_value else None

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        self._same_dtype(delta, "assign_add")
        return self.assign(self._value + _to_numpy(delta, self._value.dtype), read_value=read_value)

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        self._same_dtype(delta, "assign_sub")
        return self.assign(self._value - _to_numpy(delta, self._value.dtype), read_value=read_value)

    def _scatter(self, sparse_delta, ufunc, method):
        """Apply ``sparse_delta`` (an ``IndexedSlices``) row-wise with ``ufunc`` (None: replace)."""
        if type(sparse_delta).__name__ != "IndexedSlices":
            raise TypeError(f"Argument `sparse_delta` must be a `tf.IndexedSlices`. Received arg: "
                            f"{sparse_delta}")
        self._same_dtype(sparse_delta.values, method)
        indices = np.asarray(_to_numpy(sparse_delta.indices))
        updates = np.asarray(_to_numpy(sparse_delta.values, self._value.dtype))
        new = np.array(self._value, copy=True)
        if ufunc is None:
            new[indices] = updates
        else:
            ufunc.at(new, indices, updates)
        return self.assign(new)

    def scatter_update(self, sparse_delta, use_locking=False, name=None):
        return self._scatter(sparse_delta, None, "scatter_update")

    def scatter_add(self, sparse_delta, use_locking=False, name=None):
        return self._scatter(sparse_delta, np.add, "scatter_add")

    def scatter_sub(self, sparse_delta, use_locking=False, name=None):
        return self._scatter(sparse_delta, np.subtract, "scatter_sub")

    def scatter_mul(self, sparse_delta, use_locking=False, name=None):
        return self._scatter(sparse_delta, np.multiply, "scatter_mul")

    def scatter_max(self, sparse_delta, use_locking=False, name=None):
        return self._scatter(sparse_delta, np.maximum, "scatter_max")

    def scatter_min(self, sparse_delta, use_locking=False, name=None):
        return self._scatter(sparse_delta, np.minimum, "scatter_min")

    def _scatter_nd(self, indices, updates, ufunc):
        idx = np.asarray(_to_numpy(indices))
        where = tuple(np.moveaxis(idx, -1, 0))
        new = np.array(self._value, copy=True)
        values = np.asarray(_to_numpy(updates, self._value.dtype))
        if ufunc is None:
            new[where] = values
        else:
            ufunc.at(new, where, values)
        return self.assign(new)

    def scatter_nd_update(self, indices, updates, name=None):
        return self._scatter_nd(indices, updates, None)

    def scatter_nd_add(self, indices, updates, name=None):
        return self._scatter_nd(indices, updates, np.add)

    def scatter_nd_sub(self, indices, updates, name=None):
        return self._scatter_nd(indices, updates, np.subtract)

    def __repr__(self):
        return (f"<tf.Variable '{self.name}' shape={self.shape} dtype={self.dtype.name}, "
                f"numpy={_numpy_text(self._value)}>")

    def __str__(self):
        return repr(self)

    def __deepcopy__(self, memo):
        return Variable(np.array(self._value, copy=True), trainable=self._trainable, name=self._name)

    def __reduce__(self):
        return (Variable, (self._value, self._trainable, True, None, self._name))


Variable.__name__ = Variable.__qualname__ = "ResourceVariable"
ResourceVariable = Variable


class _UnreadVariable(Tensor):
    """What ``assign*`` returns: the new value, printed as TF prints it (``'UnreadVariable'``)."""

    __slots__ = ("_var",)

    def __init__(self, var):
        self._value = var._value
        self._var = var

    def __repr__(self):
        return (f"<tf.Variable 'UnreadVariable' shape={self.shape} dtype={self.dtype.name}, "
                f"numpy={_numpy_text(self._value)}>")

    __str__ = __repr__

