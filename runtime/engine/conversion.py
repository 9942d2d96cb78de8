"""numpy values from Python data, numpy data or tensors, with TF's default dtypes (Python floats
become float32, ints int32) and TF's refusals (no silent float -> int conversion)."""

import numpy as np

from ..rules.registry import TENSOR_TYPES as _TENSOR_TYPES
from .dtypes import as_dtype

_builtin_bool = bool


def _unwrap(x):
    """The numpy value of a tensor (of each tensor in a list or tuple); other values as they are."""
    t = type(x)
    if t in _TENSOR_TYPES:
        return x._value
    if t is list or t is tuple:
        return t(_unwrap(v) for v in x)
    return x


def _infer_numpy(value):
    """numpy value for Python data with TF's default dtypes (float32, int32, bool)."""
    if isinstance(value, _builtin_bool):
        return np.bool_(value)
    if isinstance(value, int):
        return np.int32(value) if -(2 ** 31) <= value < 2 ** 31 else np.int64(value)
    if isinstance(value, float):
        return np.float32(value)
    if isinstance(value, complex):
        return np.complex128(value)
    if isinstance(value, (str, bytes)):
        return _string_array(value)
    arr = np.array(_unwrap_nested(value))
    if arr.dtype == np.float64 and not _has_numpy_float64(value):
        arr = arr.astype(np.float32)
    elif arr.dtype == np.int64 and not _has_numpy_int64(value):
        if arr.size == 0 or (arr.min() >= -(2 ** 31) and arr.max() < 2 ** 31):
            arr = arr.astype(np.int32)
    elif arr.dtype.kind in "US":
        arr = _string_array(arr)
    return arr


def _string_array(value):
    """A string tensor's value: an object array of bytes (TF's strings are bytes; str is UTF-8)."""
    arr = np.array(value, dtype=object)
    flat = [v.encode() if isinstance(v, str) else bytes(v) for v in arr.reshape(-1)]
    out = np.empty(len(flat), dtype=object)
    out[:] = flat
    return out.reshape(arr.shape)


def _unwrap_nested(value):
    if type(value) in _TENSOR_TYPES:
        return value._value
    if isinstance(value, (list, tuple)):
        return [_unwrap_nested(v) for v in value]
    return value


def _leaves(value):
    if isinstance(value, (list, tuple)):
        for v in value:
            yield from _leaves(v)
    else:
        yield value


def _has_numpy_float64(value):
    return any(
        getattr(v, "dtype", None) == np.float64 for v in _leaves(value)
    )


def _has_numpy_int64(value):
    return any(getattr(v, "dtype", None) == np.int64 for v in _leaves(value))


def _to_numpy(value, dtype=None):
    """The numpy value of ``value`` (Python data, numpy data or a tensor), optionally cast."""
    if type(value) in _TENSOR_TYPES:
        arr = value._value
    elif isinstance(value, (np.ndarray, np.generic)):
        arr = value
    else:
        arr = _infer_numpy(value) if dtype is None else _convert_python(value, as_dtype(dtype))
    if dtype is not None:
        want = as_dtype(dtype)._np
        if arr.dtype != want:
            arr = _cast_checked(arr, want, value)
    return arr


def _convert_python(value, dtype):
    want = dtype._np
    arr = np.array(_unwrap_nested(value))
    if (arr.dtype.kind == "f" and want.kind in "iub" and not np.all(np.equal(np.mod(arr, 1), 0))
            or want.kind == "b" and arr.dtype.kind in "iuf"):
        raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dtype.name}: give values "
                        f"of that dtype, or build the tensor first and tf.cast it")
    return arr.astype(want)[()] if arr.ndim == 0 else arr.astype(want)


def _cast_checked(arr, want, original):
    if arr.dtype.kind in "fc" and want.kind in "iub" and type(original) not in _TENSOR_TYPES:
        raise TypeError(f"Cannot convert {original!r} to EagerTensor of dtype {np.dtype(want).name}: "
                        f"give values of that dtype, or tf.cast a tensor explicitly")
    out = np.asarray(arr).astype(want)
    return out[()] if out.ndim == 0 else out

