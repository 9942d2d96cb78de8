"""``tf.experimental.numpy``: numpy's names on tensors, and TF's numpy behaviour.

* Every numpy name: ``tnp.sum(t, axis=0)``, ``tnp.dot(a, b)``... run numpy's function on tensors (on a
  tape, recorded with its derivative rule) and give a tensor; plain values give tensors with numpy's
  dtypes (a Python float becomes float64, as in TF's ``tnp``).  A list holding tensors is one array:
  ``tnp.array([t1, t2])``, ``tnp.mean([t, u])`` stack it on the tape (numpy itself would convert the
  tensors to plain arrays).  ``tnp.r_`` and ``tnp.c_`` do the same for numpy's index tricks (TF has
  no such names).
* ``experimental_enable_numpy_behavior()``, as in TF 2.21: from then on tensors have TF's ndarray
  methods (``reshape``, ``ravel``, ``flatten``, ``T``, ``transpose``, ``astype``, ``clip``, ``max``,
  ``min``, ``mean``, ``size``, ``data``, ``tolist``) and the other ones numpy code calls (``sum``,
  ``prod``, ``std``, ``var``, ``dot``, ``squeeze``, ``argmax``, ``cumsum``, ``item``, ``real``...:
  TF has none of these), and operators promote dtypes as numpy does (``float32 + int32`` is
  float64; a Python number takes the tensor's dtype).  Without the call tensors keep TF's
  attributes and TF's refusal to mix dtypes.
"""

import numpy as np

from ..engine import tensor as _tensor
from ..engine.protocol import _sequence_positions
from ..engine.tensor import Tensor, _TensorBase, constant

ndarray = Tensor
newaxis = None


def _is_tensor(x):
    return isinstance(x, _TensorBase)


def _holds_tensor(x):
    if isinstance(x, (list, tuple)):
        return any(_holds_tensor(v) for v in x)
    return _is_tensor(x)


def _one_array(x):
    """A (nested) list or tuple holding tensors as one array: np.stack of its items (recorded)."""
    if isinstance(x, (list, tuple)) and _holds_tensor(x):
        return np.stack([_one_array(v) for v in x])
    return x


def _arguments(func, args, kwargs):
    """Lists holding tensors become one array each, except where ``func`` takes a sequence of arrays
    (np.concatenate's first argument): there each item becomes one."""
    sequences = _sequence_positions(func) if callable(func) else ()
    args = tuple(type(a)(_one_array(v) for v in a) if i in sequences and isinstance(a, (list, tuple))
                 else _one_array(a) for i, a in enumerate(args))
    return args, {k: _one_array(v) for k, v in kwargs.items()}


def _as_tensors(out):
    """numpy's results as tensors (tuples of them stay tuples; Python numbers and None stay)."""
    if _is_tensor(out) or out is None:
        return out
    if isinstance(out, (np.ndarray, np.generic)):
        return constant(np.asarray(out))
    if isinstance(out, tuple):
        return type(out)(*map(_as_tensors, out)) if hasattr(out, "_fields") else tuple(map(_as_tensors, out))
    if isinstance(out, list):
        return [_as_tensors(o) for o in out]
    return out


def _on_tensors(func):
    """numpy's ``func`` for tensors: lists of tensors stacked, results as tensors."""
    def call(*args, **kwargs):
        args, kwargs = _arguments(func, args, kwargs)
        return _as_tensors(func(*args, **kwargs))
    call.__name__ = getattr(func, "__name__", "function")
    call.__qualname__ = call.__name__
    call.__doc__ = f"``np.{call.__name__}`` on tensors (see runtime.experimental.numpy)."
    call.__wrapped__ = func
    return call


def array(object, dtype=None, copy=True, ndmin=0):
    """``np.array`` of tensors (stacked when a list holds them) or of plain values (numpy's dtypes)."""
    x = _one_array(object)
    if _is_tensor(x):
        if dtype is not None:
            x = _cast(x, dtype)
        return np.reshape(x, (1,) * (ndmin - x.ndim) + tuple(x.shape)) if ndmin > x.ndim else x
    return constant(np.array(x, dtype=dtype, ndmin=ndmin))


def asarray(a, dtype=None):
    return array(a, dtype=dtype)


asanyarray = asarray


def _cast(x, dtype):
    from ..ops.math_ops import cast
    return cast(x, np.dtype(getattr(dtype, "as_numpy_dtype", dtype)))


# --- np.r_ and np.c_ ------------------------------------------------------------------------------

class _Concatenator:
    """``r_[a, b, ...]`` / ``c_[...]`` of tensors: numpy's index tricks for 1-d pieces, slices and
    arrays (recorded on tapes); directive strings ('0,2,1') are numpy's own, for plain values only."""

    def __init__(self, numpy_version, columns):
        self._numpy, self._columns = numpy_version, columns

    def __getitem__(self, key):
        items = key if isinstance(key, tuple) else (key,)
        if not any(_holds_tensor(i) for i in items):
            return _as_tensors(self._numpy[key])
        if any(isinstance(i, str) for i in items):
            raise NotImplementedError("tnp.r_ / tnp.c_ with a directive string is not supported on tensors; "
                                      "use tnp.concatenate or tnp.stack with axis=")
        pieces = [self._piece(i) for i in items]
        return np.concatenate(pieces, axis=-1 if self._columns else 0)

    def _piece(self, item):
        if isinstance(item, slice):
            item = np.r_[item]
        x = np.atleast_1d(_one_array(item))
        if self._columns and np.ndim(x) == 1:
            x = np.expand_dims(x, -1)
        return x


r_ = _Concatenator(np.r_, False)
c_ = _Concatenator(np.c_, True)


# --- TF's numpy behaviour ----------------------------------------------------------------------------

def _reshape(self, *shape, order="C"):
    if len(shape) == 1 and not isinstance(shape[0], (int, np.integer)):
        shape = shape[0]
    return np.reshape(self, shape, order=order)


def _ravel(self, order="C"):
    return np.ravel(self, order=order)


def _transpose(self, *axes):
    if len(axes) == 1 and (axes[0] is None or isinstance(axes[0], (tuple, list))):
        axes = axes[0]
    return np.transpose(self, axes or None)


def _reduction(func):
    def method(self, axis=None, *args, **kwargs):
        return func(self, axis, *args, **kwargs)
    method.__name__ = func.__name__
    return method


def _method(func):
    def method(self, *args, **kwargs):
        return func(self, *args, **kwargs)
    method.__name__ = func.__name__
    return method


def _squeeze(self, axis=None):
    return np.squeeze(self, axis=axis)


def _item(self, *args):
    return self.numpy().item(*args)


TF_METHODS = {
    "reshape": _reshape, "ravel": _ravel, "flatten": _ravel, "T": property(np.transpose),
    "transpose": _transpose, "astype": _cast, "clip": _method(np.clip),
    "max": _reduction(np.max), "min": _reduction(np.min), "mean": _reduction(np.mean),
    "size": property(lambda self: np.int64(np.size(self.numpy()))), "data": property(lambda self: self),
    "tolist": lambda self: self.numpy().tolist(),
}
"""What TF 2.21's experimental_enable_numpy_behavior() adds to tensors."""

NUMPY_METHODS = {
    "sum": _reduction(np.sum), "prod": _reduction(np.prod), "std": _reduction(np.std), "var": _reduction(np.var),
    "any": _reduction(np.any), "all": _reduction(np.all), "argmax": _reduction(np.argmax),
    "argmin": _reduction(np.argmin), "cumsum": _reduction(np.cumsum), "cumprod": _reduction(np.cumprod),
    "ptp": _reduction(np.ptp), "dot": _method(np.dot), "squeeze": _squeeze, "repeat": _method(np.repeat),
    "swapaxes": _method(np.swapaxes), "diagonal": _method(np.diagonal), "trace": _method(np.trace),
    "take": _method(np.take), "round": _method(np.round), "nonzero": _method(np.nonzero),
    "conj": _method(np.conj), "conjugate": _method(np.conj), "item": _item,
    "real": property(np.real), "imag": property(np.imag),
}
"""The other ndarray methods numpy code calls (TF's tensors lack them; adjoin adds them too)."""

_REPLACED = {}
"""Tensor's own attributes the numpy behaviour replaced (None: it had none of that name)."""


def experimental_enable_numpy_behavior(prefer_float32=False, dtype_conversion_mode="legacy"):
    """Give tensors ndarray methods and numpy's dtype promotion in operators (module docstring)."""
    if prefer_float32:
        raise NotImplementedError("experimental_enable_numpy_behavior(prefer_float32=True) is not "
                                  "supported: Python floats in operators take the tensor's dtype already")
    for name, method in {**TF_METHODS, **NUMPY_METHODS}.items():
        if name not in _REPLACED:
            _REPLACED[name] = vars(Tensor).get(name)
        setattr(Tensor, name, method)         # (as in TF, Variables do not get them)
    _tensor.numpy_promotion(True)


def _disable_numpy_behavior():
    """Undo ``experimental_enable_numpy_behavior`` (TF has no such call; tests use it)."""
    for name, old in _REPLACED.items():
        if old is None:
            delattr(Tensor, name)
        else:
            setattr(Tensor, name, old)
    _REPLACED.clear()
    _tensor.numpy_promotion(False)


def __getattr__(name):
    value = getattr(np, name)          # AttributeError for what numpy lacks, as for any module
    if callable(value) and not isinstance(value, type):
        value = _on_tensors(value)
    globals()[name] = value
    return value
