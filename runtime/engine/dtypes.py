"""TF's dtypes: ``tf.float32`` and friends, and ``as_dtype`` from numpy dtypes, Python types or names."""

import numpy as np

__all__ = ["DType", "as_dtype", "float16", "float32", "float64", "half", "double", "int8", "int16",
           "int32", "int64", "uint8", "complex64", "complex128", "bool", "string"]

_builtin_bool = bool


class DType:
    """A TF dtype: ``str`` is ``<dtype: 'float32'>``, ``repr`` is ``tf.float32`` (as in TF 2.21);
    compares equal to the matching numpy dtype."""

    __slots__ = ("_np", "name")

    def __init__(self, np_dtype):
        self._np = np.dtype(np_dtype)
        self.name = "string" if self._np.kind in "OUS" else self._np.name

    as_numpy_dtype = property(lambda self: self._np.type)
    is_floating = property(lambda self: self._np.kind == "f")
    is_integer = property(lambda self: self._np.kind in "iu")
    is_complex = property(lambda self: self._np.kind == "c")
    is_bool = property(lambda self: self._np.kind == "b")
    is_unsigned = property(lambda self: self._np.kind == "u")
    base_dtype = property(lambda self: self)
    size = property(lambda self: self._np.itemsize)

    @property
    def min(self):
        return np.finfo(self._np).min if self.is_floating else np.iinfo(self._np).min

    @property
    def max(self):
        return np.finfo(self._np).max if self.is_floating else np.iinfo(self._np).max

    def __repr__(self):
        return f"tf.{self.name}"

    def __str__(self):
        return f"<dtype: '{self.name}'>"

    def __eq__(self, other):
        if isinstance(other, DType):
            return self._np == other._np
        try:
            return self._np == as_dtype(other)._np
        except TypeError:
            return NotImplemented

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self):
        return hash(self._np)

    def __reduce__(self):
        return (as_dtype, (self.name,))


_DTYPES = {}


def as_dtype(value):
    """A DType from a DType, numpy dtype, Python type or name (``'float32'``, ``float``)."""
    if isinstance(value, DType):
        return value
    if value is float:
        value = np.float32
    elif value is int:
        value = np.int32
    elif value is _builtin_bool:
        value = np.bool_
    elif isinstance(value, str) and value == "string":
        value = np.object_
    try:
        key = np.dtype(value)
    except TypeError:
        raise TypeError(f"Cannot convert {value!r} to a dtype.") from None
    dt = _DTYPES.get(key)
    if dt is None:
        dt = _DTYPES[key] = DType(key)
    return dt


float16, float32, float64 = as_dtype(np.float16), as_dtype(np.float32), as_dtype(np.float64)
half, double = float16, float64
int8, int16, int32, int64 = (as_dtype(t) for t in (np.int8, np.int16, np.int32, np.int64))
uint8 = as_dtype(np.uint8)
complex64, complex128 = as_dtype(np.complex64), as_dtype(np.complex128)
bool = as_dtype(np.bool_)  # noqa: A001  (TF's name)
string = as_dtype(np.object_)
