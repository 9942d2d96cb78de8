"""Keras plumbing shared by every module: variables, names, random state, conversion.

* :class:`KerasVariable` is a ``runtime.Variable`` (so tapes, ``assign_sub`` and optimizers
  accept it) that prints and names itself as Keras 3 does: ``<Variable path=dense/kernel,
  shape=(3, 30), dtype=float32, value=[...]>``, ``name == 'kernel'``.
* Layer names are unique per prefix (``dense``, ``dense_1``, ...) until :func:`clear_session`.
* Weights get a ``path`` from the layers being built/called around them (``sequential/dense/kernel``).
* Random draws (initializers, dropout, shuffling) come from one numpy Generator that
  :func:`set_random_seed` reseeds; initializers given an explicit ``seed`` use their own.
"""

import collections
import random as _pyrandom
import re
import threading

import numpy as np

from ..rules.shape import cast as _cast
from ..engine.tensor import Tensor, _TensorBase, constant
from ..engine.variable import Variable

_FLOATX = "float32"
_EPSILON = 1e-7


def floatx():
    return _FLOATX


def epsilon():
    return _EPSILON


# --- names -----------------------------------------------------------------------------

_uids = collections.defaultdict(int)


def get_uid(prefix):
    """1 for the first call with ``prefix``, then 2, 3, ..."""
    _uids[prefix] += 1
    return _uids[prefix]


def unique_name(prefix):
    """``prefix`` the first time, then ``prefix_1``, ``prefix_2``, ... (Keras' auto names)."""
    n = get_uid(prefix)
    return prefix if n == 1 else f"{prefix}_{n - 1}"


def snake_case(name):
    """``MyModel`` -> ``my_model`` (how Keras derives default layer names from class names)."""
    s = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", s).lower()


class _Scopes(threading.local):
    def __init__(self):
        self.stack = []      # layers whose build/call is running, outermost first
        self.training = []   # the training flag of enclosing calls


_scopes = _Scopes()


def current_path():
    return "/".join(layer.name for layer in _scopes.stack)


def clear_session():
    """Reset auto-naming (the next Dense is ``dense`` again)."""
    _uids.clear()


# --- random state ----------------------------------------------------------------------

_rng = [np.random.default_rng()]


def rng(seed=None):
    """The shared Generator, or a fresh one for an explicit ``seed``."""
    return _rng[0] if seed is None else np.random.default_rng(seed)


def set_random_seed(seed):
    """``keras.utils.set_random_seed``: seeds Python's ``random``, numpy and Keras' own draws."""
    _pyrandom.seed(seed)
    np.random.seed(seed)
    _rng[0] = np.random.default_rng(seed)


# --- variables -------------------------------------------------------------------------

class KerasVariable(Variable):
    """A Keras 3 weight: a ``tf.Variable`` with Keras' name, ``path`` and printing."""

    def __init__(self, initializer, shape=None, dtype=None, trainable=True, name="variable",
                 regularizer=None, constraint=None, path=None):
        if callable(initializer) and not isinstance(initializer, _TensorBase):
            value = initializer(tuple(shape), dtype=dtype or _FLOATX)
        else:
            value = initializer
        value = np.asarray(value._value if isinstance(value, _TensorBase) else value)
        value = value.astype(dtype or (value.dtype if value.dtype.kind not in "fO" else _FLOATX))
        if value.ndim == 0:
            value = value[()]
        super().__init__(value, trainable=trainable, name=name)
        self._name = name  # Keras 3 names ignore tf.name_scope
        self._keras_trainable = bool(trainable)
        self.path = path or name
        self.regularizer = regularizer
        self._keras_constraint = constraint

    name = property(lambda self: self._name)
    dtype = property(lambda self: self._value.dtype.name, doc="Keras 3 gives the dtype's name: 'float32'.")

    @property
    def trainable(self):
        return self._keras_trainable

    @trainable.setter
    def trainable(self, value):
        """Keras' flag only: as with Keras 3 on TF, the underlying variable keeps the
        trainability it was created with, so tapes still watch it (or still do not)."""
        self._keras_trainable = bool(value)

    def _same_dtype(self, value, method):
        """Keras 3 casts what is assigned to the variable's dtype (a tf.Variable refuses)."""

    @property
    def value(self):
        """The current value as a tensor (a property in Keras 3)."""
        return self.read_value()

    def __repr__(self):
        v = self._value
        text = str(v) if np.ndim(v) else str(v.item() if hasattr(v, "item") else v)
        return f"<Variable path={self.path}, shape={self.shape}, dtype={self.dtype}, value={text}>"

    __str__ = __repr__

    def __deepcopy__(self, memo):
        return KerasVariable(np.array(self._value, copy=True), trainable=self._keras_trainable,
                             name=self._name, path=self.path, regularizer=self.regularizer)

    def __reduce__(self):
        return (_rebuild, (np.array(self._value), self._keras_trainable, self._name, self.path))


def _rebuild(value, trainable, name, path):
    return KerasVariable(value, trainable=trainable, name=name, path=path)



# --- conversion ------------------------------------------------------------------------

def is_tensor(x):
    return isinstance(x, _TensorBase)


def convert(x, dtype=None):
    """A tensor for ``x``: tensors pass through; numpy and Python floats become float32."""
    if isinstance(x, _TensorBase):
        if dtype is not None and x._value.dtype != np.dtype(dtype):
            return _cast(x, np.dtype(dtype))
        return x
    arr = np.asarray(x)
    if dtype is not None:
        arr = arr.astype(dtype)
    elif arr.dtype.kind == "f" and arr.dtype != np.float32:
        arr = arr.astype(np.float32)
    return constant(arr)


def cast(x, dtype):
    """Differentiable cast of a tensor (no-op when the dtype already matches)."""
    dtype = np.dtype(dtype)
    if isinstance(x, _TensorBase):
        return x if x._value.dtype == dtype else _cast(x, dtype)
    return constant(np.asarray(x, dtype=dtype))


def autocast_input(x, dtype=_FLOATX):
    """Layer input conversion: numpy/Python data to tensors, floating inputs to the layer's dtype."""
    want = np.dtype(dtype)
    if isinstance(x, _TensorBase):
        return _cast(x, want) if x._value.dtype.kind == "f" and x._value.dtype != want else x
    if isinstance(x, (list, tuple)) and x and isinstance(x[0], (_TensorBase, np.ndarray)) and \
            not all(np.ndim(e) == 0 for e in x):
        return type(x)(autocast_input(e, dtype) for e in x)
    if isinstance(x, dict):
        return {k: autocast_input(v, dtype) for k, v in x.items()}
    if x is None:
        return None
    arr = np.asarray(x)
    return constant(arr.astype(want) if arr.dtype.kind == "f" else arr)


def as_tensor(x):
    """A tensor for ``x`` keeping numpy dtypes (Python data gets TF's defaults, float32)."""
    if isinstance(x, _TensorBase):
        return x
    if isinstance(x, (np.ndarray, np.generic)):
        return constant(x)
    return constant(x)


def to_numpy(x):
    return x._value if isinstance(x, _TensorBase) else np.asarray(x)


__all__ = ["KerasVariable", "floatx", "epsilon", "clear_session", "set_random_seed", "unique_name",
           "convert", "cast", "Tensor"]
