"""Tensor, Variable, dtypes and conversion, printing exactly as TensorFlow 2 prints.

A Tensor is an immutable wrapper around a numpy value (an ndarray, or a numpy scalar for
rank 0).  Every operation on tensors goes through :func:`apply`, which computes the value
with plain numpy and lets each recording tape decide whether to keep the op.
"""

import itertools
import operator
import threading

import numpy as np

from . import errors, protocol
from ..rules import registry
from ..rules.arithmetic import identity

__all__ = [
    "DType", "as_dtype", "TensorShape", "Tensor", "Variable", "constant", "convert_to_tensor",
    "apply", "float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8",
    "bool", "complex64", "complex128", "string",
]

_builtin_bool = bool


# --- dtypes -------------------------------------------------------------------------------

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


class TensorShape(tuple):
    """A tuple of ints that prints as TF's: ``str`` is ``(2, 3)``, ``repr`` is ``TensorShape([2, 3])``."""

    __slots__ = ()

    def __new__(cls, dims=()):
        if dims is None:
            dims = ()
        if isinstance(dims, int):
            dims = (dims,)
        return tuple.__new__(cls, tuple(None if d is None else int(d) for d in dims))

    def __repr__(self):
        return f"TensorShape({list(self)!r})"

    def __str__(self):
        return tuple.__repr__(tuple(self)).replace("None", "None")

    rank = property(lambda self: len(self))
    ndims = rank
    dims = property(lambda self: list(self))

    def as_list(self):
        return list(self)

    def num_elements(self):
        return int(np.prod(self)) if None not in self else None

    def is_fully_defined(self):
        return None not in self

    def __getitem__(self, key):
        r = tuple.__getitem__(self, key)
        return TensorShape(r) if isinstance(key, slice) else r

    def concatenate(self, other):
        return TensorShape(tuple(self) + tuple(other))

    def is_compatible_with(self, other):
        other = TensorShape(other)
        return len(self) == len(other) and all(
            a is None or b is None or a == b for a, b in zip(self, other)
        )

    def assert_is_compatible_with(self, other):
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {TensorShape(other)} are incompatible")


# --- conversion ---------------------------------------------------------------------------

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
    if isinstance(value, _TensorBase):
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
    if isinstance(value, _TensorBase):
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
    if arr.dtype.kind in "fc" and want.kind in "iub" and not isinstance(original, _TensorBase):
        raise TypeError(f"Cannot convert {original!r} to EagerTensor of dtype {np.dtype(want).name}: "
                        f"give values of that dtype, or tf.cast a tensor explicitly")
    out = np.asarray(arr).astype(want)
    return out[()] if out.ndim == 0 else out


def constant(value, dtype=None, shape=None, name=None):
    """``tf.constant``: Python floats become float32, ints int32; numpy values keep their dtype."""
    arr = _to_numpy(value, dtype)
    if shape is not None:
        shape = tuple(TensorShape(shape))
        if arr.size == 1 and shape != np.shape(arr):
            arr = np.full(shape, np.asarray(arr).reshape(()), dtype=arr.dtype)
        elif np.size(arr) == int(np.prod(shape)):
            arr = np.reshape(arr, shape)
        else:
            raise TypeError(
                f"Eager execution of tf.constant with unsupported shape. Tried to convert a value "
                f"with {np.size(arr)} elements to a Tensor of shape {TensorShape(shape)}."
            )
    t = _wrap(arr)
    if _EXPLAIN is not None:
        _EXPLAIN.created(t, value)
    return t


def convert_to_tensor(value, dtype=None, dtype_hint=None, name=None):
    """``tf.convert_to_tensor``: tensors pass through (a Variable is read), the rest is converted."""
    if isinstance(value, Tensor):
        if dtype is not None and as_dtype(dtype) != value.dtype:
            raise ValueError(
                f"Tensor conversion requested dtype {as_dtype(dtype).name} for Tensor with dtype "
                f"{value.dtype.name}: {value!r}; cast it with tf.cast(t, tf.{as_dtype(dtype).name})"
            )
        return value
    if isinstance(value, Variable):
        return value.read_value()
    if dtype is None and dtype_hint is not None and not isinstance(value, (np.ndarray, np.generic)):
        try:
            return constant(value, dtype=dtype_hint)
        except (TypeError, ValueError):
            pass
    return constant(value, dtype=dtype)


_TINY = {}
_fmin_reduce = np.fmin.reduce


def flush_subnormals(value):
    """``value`` with subnormal floats replaced by (signed) zero, as TF's CPU kernels give them:
    TF runs its kernels with flush-to-zero on (``tf.sigmoid(-100.0)`` is 0, not 3.8e-44)."""
    small = subnormals(value)
    if small is None:
        return value
    return np.where(small, np.copysign(np.zeros_like(value), value), value)[()]


def subnormals(value):
    """Where ``value`` has magnitudes below its dtype's smallest normal (zeros included), or None
    when it holds no subnormal.  Every gradient and some ops' results pass through here, so the
    usual case is a short vectorised test (numpy's per-call cost dominates on small arrays)."""
    dt = getattr(value, "dtype", None)
    if dt is None or dt.kind != "f":
        return None
    tiny = _TINY.get(dt)
    if tiny is None:
        tiny = _TINY[dt] = np.finfo(dt).tiny      # np.finfo costs microseconds: once per dtype
    if isinstance(value, np.ndarray) and value.ndim:
        size = value.size
        if not size:
            return None
        magnitude = np.abs(value)
        if size > _SMALL_ARRAY:
            # large: the smallest magnitude (fmin skips NaN) is normal; a reduction is cheapest
            least = _fmin_reduce(magnitude, None)
            if least >= tiny or least != least:   # no subnormal (NaN: every value is NaN)
                return None
        small = magnitude < tiny                  # NaN compares False: never flushed
        below = _count_nonzero(small)
        if not below or below == size - _count_nonzero(magnitude):
            return None                           # nothing below tiny, or only zeros
        return small
    small = abs(value) < tiny                     # a scalar or 0-d array: one comparison
    return small if small else None


_SMALL_ARRAY = 2048
"""Above this size ``subnormals`` tests the smallest magnitude (one reduction); up to it, counts
the magnitudes below tiny (a comparison and np.count_nonzero cost less than a reduction there)."""
_count_nonzero = np.count_nonzero


def _wrap(value):
    t = Tensor.__new__(Tensor)
    t._value = value
    return t


# --- recording ----------------------------------------------------------------------------

class _ThreadState(threading.local):
    def __init__(self):
        self.tapes = []  # tapes currently recording in this thread, innermost last
        self.in_rules = 0  # > 0 while a recorded gradient sweep runs derivative rules on tensors


_state = _ThreadState()


def _quiet_errstate():
    """numpy's error-state context variable and its all-'ignore' value (what np.errstate sets),
    so ``apply`` can silence floating-point warnings for ~0.1 us instead of np.errstate's ~3 us."""
    try:
        from numpy._core._ufunc_config import _extobj_contextvar as var
    except ImportError:  # numpy < 2: np.errstate's own context variable is not exposed
        return _NoErrstate(), None
    with np.errstate(all="ignore"):
        return var, var.get()


class _NoErrstate:
    """Stand-in for old numpy: set/reset through np.seterr (slower, same effect)."""

    def set(self, _value):
        return np.seterr(all="ignore")

    def reset(self, old):
        np.seterr(**old)


_errstate, _QUIET = _quiet_errstate()
_quiet_set, _quiet_reset = _errstate.set, _errstate.reset
_EXPLAIN = None  # runtime.engine.explain while tf.debugging.enable_gradient_explanations() is on
_get_rule = registry.RULES.get   # the hot path: a dict get; a miss loads the callable's family


def _lookup(fn):
    return _get_rule(fn) or registry.lookup(fn)


def _unwrap(x):
    t = type(x)
    if t is Tensor or t is Variable:
        return x._value
    if t is list or t is tuple:
        return t(_unwrap(v) for v in x)
    if isinstance(x, _TensorBase):
        return x._value
    return x


def apply(fn, args, kwargs=None):
    """Run primitive ``fn`` on tensors: compute with numpy, record on every tape that watches an input."""
    rule = _get_rule(fn) or registry.lookup(fn)
    if rule is None:
        raise TypeError(
            f"{registry._name_of(fn)} has no derivative rule in adjoin, so it cannot run on tensors. "
            f"Convert to numpy first (t.numpy()) if you do not need its gradient, or add a rule "
            f"with runtime.rules.define(...)."
        )
    if len(args) == 2:  # the common case, without a comprehension's call (hot path)
        a, b = args
        vals = [a._value if type(a) is Tensor else _unwrap(a),
                b._value if type(b) is Tensor else _unwrap(b)]
    else:
        vals = [a._value if type(a) is Tensor else _unwrap(a) for a in args]
    quiet = _quiet_set(_QUIET)  # TF prints no floating-point warnings (log(-1), 1/0...)
    try:
        out = rule.impl(*vals, **kwargs) if kwargs else rule.impl(*vals)
    except (ValueError, IndexError) as e:  # shapes, indices out of range: TF's error type
        raise errors.InvalidArgumentError(_op_error(rule.name, vals, e)) from e
    finally:
        _quiet_reset(quiet)
    if type(out) is bytes:  # numpy gives a string scalar back as bare bytes
        out = _string_array(out)
    result = Tensor.__new__(Tensor)
    result._value = out
    if _EXPLAIN is not None:
        _EXPLAIN.op(rule, args, result)
    tapes = _state.tapes
    if tapes:
        dt = getattr(out, "dtype", None)
        if rule.differentiable and dt is not None and dt.kind in "fc":
            for tape in tapes:
                tape._record(rule, args, vals, kwargs, result)
        else:  # nothing to differentiate, but reading a variable still watches it (as in TF)
            if dt is None and rule.differentiable and type(out) in (tuple, list):
                raise TypeError(_several_values(rule.name, out))
            for tape in tapes:
                tape._note_reads(args)
    return result


def _several_values(name, out):
    """Why a primitive returning several values cannot run on tensors, and what to do."""
    return (f"{name} returns {len(out)} values, and a tape records one array per op: register a form "
            f"of it on tensors built from single-output primitives in runtime.rules.registry.COMPOSITES "
            f"(as np.linalg.eigh has), or call it on numpy arrays (t.numpy())")


def _plain_rule(fn):
    """``fn``'s Rule when ``protocol.array_function`` would record a call of it as it is (no
    rewrite, several results or metadata read), else None.  Kept in ``_PLAIN_FUNCS``: the numpy
    protocol is the hot path of numpy code on tensors, and rules are only ever added."""
    if fn in _METADATA or fn in _REWRITES or fn in _COMPOSITES:
        return None
    rule = _lookup(fn)
    if rule is not None:
        _PLAIN_FUNCS[fn] = rule
    return rule


def _plain_keywords(rule, kwargs):
    """True when the keywords can go to ``apply`` as they are: constants (``axis=-1``) for
    parameters no VJP rule differentiates.  Else ``protocol`` moves them to their positions (so
    they receive gradients), or refuses them."""
    differentiated = _DIFFERENTIATED_PARAMS.get(rule)
    if differentiated is None:
        names = protocol._positional_params(rule)[0]
        differentiated = _DIFFERENTIATED_PARAMS[rule] = frozenset(
            name for i, name in enumerate(names) if rule.vjp(i) is not None)
    for name, v in kwargs.items():
        if name in differentiated or type(v) not in _PLAIN_KEYWORD_TYPES:
            return False
    return True


def _plain_ufunc(ufunc):
    """Whether ``protocol.array_ufunc`` would record a keyword-free call of ``ufunc`` as it is."""
    if ufunc.nout == 1 and ufunc not in _UFUNC_REWRITES and _lookup(ufunc) is not None:
        _PLAIN_UFUNCS.add(ufunc)
        return True
    return False


_PLAIN_FUNCS = {}
"""numpy function -> its Rule, for the functions ``_plain_rule`` found that ``protocol`` records as
they are; ``_PLAIN_UFUNCS`` likewise for ufuncs (``_plain_ufunc``)."""
_PLAIN_UFUNCS = set()
_PLAIN_KEYWORD_TYPES = {int, float, bool, str, type(None)}
_DIFFERENTIATED_PARAMS = {}
"""Rule -> names of its primitive's positional parameters that have a VJP rule: given by keyword,
such an argument must become positional (``protocol._bind``)."""


def _op_error(name, vals, e):
    """TF's complaint about an op's inputs, with their shapes and what to do."""
    shapes = ", ".join(str(TensorShape(np.shape(v))) for v in vals if isinstance(v, (np.ndarray, np.generic)))
    fix = ("use indices within the tensor's shape" if isinstance(e, IndexError) else
           "make the shapes agree (tf.reshape, tf.expand_dims, tf.broadcast_to)")
    return f"{name}: {e} (input shapes: {shapes}); {fix}"


_UFUNC_REWRITES, _REWRITES, _COMPOSITES = protocol.UFUNC_REWRITES, protocol.REWRITES, registry.COMPOSITES
"""The calls ``protocol`` rewrites (the short ways in the numpy protocols leave them to it)."""

_METADATA = {np.shape, np.ndim, np.size, np.result_type, np.iscomplexobj, np.isrealobj,
             np.may_share_memory, np.shares_memory, np.array_equal, np.allclose, np.isclose,
             np.array_equiv, np.min_scalar_type, np.can_cast}
"""numpy functions that read tensors without producing new ones: run on the values directly."""


# --- Tensor -------------------------------------------------------------------------------

def _binary(fn, x, y):
    """An operator: TF's rules for mixing operands (tensors of different dtypes are an error)."""
    ty = type(y)
    if ty is Tensor or ty is Variable or isinstance(y, _TensorBase):
        xd, yd = x._value.dtype, y._value.dtype
        if xd != yd and not _state.in_rules:   # rules mix real and complex as numpy does
            op, xn, yn = _OP_NAMES.get(fn, registry._name_of(fn)), as_dtype(xd).name, as_dtype(yd).name
            e = errors.InvalidArgumentError(
                f"cannot compute {op} as input #1(zero-based) was expected to be a {xn} tensor but is a "
                f"{yn} tensor: TF does not convert dtypes implicitly; cast one with tf.cast(y, tf.{xn})")
            e.graph_message = f"Input 'y' of '{op}' Op has type {yn} that does not match type {xn} of argument 'x'."
            raise e  # what a traced function raises instead: errors.call_traced
        return apply(fn, (x, y))
    return apply(fn, (x, _coerce(y, x)))


def _rbinary(fn, x, y):
    """Reflected operator ``y (op) x`` with ``x`` the tensor."""
    return apply(fn, (_coerce(y, x), x))


def _coerce(value, like):
    """A non-tensor operand converted to ``like``'s dtype (TF converts Python numbers that way)."""
    want = like._value.dtype
    if type(value) is float or type(value) is int:     # first: the common case (never complex)
        if want.kind in "iu" and type(value) is float and not value.is_integer():
            # TF converts such a float to float32 and then refuses the mixed-dtype op
            raise errors.InvalidArgumentError(
                f"cannot combine an {as_dtype(want).name} tensor with the Python float {value!r}: "
                f"cast the tensor first, e.g. tf.cast(x, tf.float32), or use an integer")
        return value if want.kind in "fc" else np.array(value, dtype=want)[()]
    if _state.in_rules and want.kind != "c" and np.iscomplexobj(value):
        return value                # a rule's complex constant (`-1j * g`): numpy promotes
    if isinstance(value, complex) and want.kind != "c":      # TF refuses rather than drop the imaginary part
        raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {as_dtype(want).name}")
    if isinstance(value, (np.ndarray, np.generic)):
        if value.dtype == want:
            return value
        return _cast_checked(value, want, value) if value.dtype.kind != "O" else value
    convert = OPERAND_CONVERTERS.get(type(value))
    if convert is not None:  # e.g. IndexedSlices: a dense tensor that stays on the tape
        return convert(value)
    return _to_numpy(value, want)


OPERAND_CONVERTERS = {}
"""type -> function giving the Tensor an operator uses for such an operand (set by its module)."""


_OP_NAMES = {np.add: "AddV2", np.subtract: "Sub", np.multiply: "Mul", np.true_divide: "RealDiv",
             np.power: "Pow", np.matmul: "MatMul"}


class _TensorBase:
    """What tensors and variables share: operators, numpy protocols, conversions."""

    __slots__ = ()
    __array_priority__ = 100

    # numpy protocols: numpy calls on tensors come back here and are recorded
    def __array__(self, dtype=None, copy=None):
        if _state.tapes:
            protocol.check_conversion(self)       # would drop a recorded gradient
        v = np.asarray(self._value)
        v = v if dtype is None else v.astype(dtype)
        if _EXPLAIN is not None:
            _EXPLAIN.leave(self, v, "array")
        return v

    # The common cases of protocol.array_ufunc / array_function, the short way: a call recorded
    # as it is (no list among the arguments to stack, no keyword to move or refuse).
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        if not kwargs and (ufunc in _PLAIN_UFUNCS or _plain_ufunc(ufunc)) and method == "__call__":
            for a in inputs:
                if type(a) is list or type(a) is tuple:
                    break
            else:
                return apply(ufunc, inputs)
        return protocol.array_ufunc(ufunc, method, inputs, kwargs)

    def __array_function__(self, func, types, args, kwargs):
        rule = _PLAIN_FUNCS.get(func) or _plain_rule(func)
        if rule is not None and (not kwargs or not rule.differentiable or _plain_keywords(rule, kwargs)):
            for a in args:
                if type(a) is list or type(a) is tuple:
                    break
            else:
                result = apply(func, args, kwargs)
                value = result._value
                if type(value) is np.ndarray or not isinstance(value, (tuple, list)):
                    return result
                return protocol._results(rule, result, args)  # several arrays: tensors, or refused
        return protocol.array_function(func, args, kwargs)

    # properties
    @property
    def shape(self):
        return TensorShape(self._value.shape)

    @property
    def dtype(self):
        return as_dtype(self._value.dtype)

    @property
    def ndim(self):
        return self._value.ndim

    @property
    def device(self):
        return "/job:localhost/replica:0/task:0/device:CPU:0"

    def get_shape(self):
        return self.shape

    def numpy(self):
        v = self._value
        if v.dtype.kind == "O" and v.ndim == 0:  # a string scalar is bytes, as in TF
            return v.item()
        v = v.copy() if isinstance(v, np.ndarray) and not v.flags.writeable else v
        if _EXPLAIN is not None:
            _EXPLAIN.leave(self, v, "numpy")
        return v

    # conversions
    def __len__(self):
        if self._value.ndim == 0:
            raise TypeError("Scalar tensor has no `len()`: use tf.size(t) or t.shape for its size")
        return len(self._value)

    def __bool__(self):
        if self._value.size != 1:
            raise ValueError(
                "The truth value of an array with more than one element is ambiguous. Use a.any() or "
                "a.all(): for a tensor, tf.reduce_any(t) or tf.reduce_all(t).")
        return _builtin_bool(self._value)

    def __setitem__(self, idx, value):
        raise TypeError(
            f"'{type(self).__name__}' object does not support item assignment: tensors are immutable. "
            f"Build a new tensor (e.g. tf.where(mask, new, t) or tf.concat), or keep the values in a "
            f"tf.Variable and assign the whole new value.")

    def __float__(self):
        v = float(self._value)
        if _EXPLAIN is not None:
            _EXPLAIN.leave(self, v, "float")
        return v

    def __int__(self):
        v = int(self._value)
        if _EXPLAIN is not None:
            _EXPLAIN.leave(self, v, "int")
        return v

    def __index__(self):
        if self._value.dtype.kind not in "iub":
            raise TypeError(f"only integer tensors can be used as an index, not {self.dtype.name}")
        return int(self._value)

    def __complex__(self):
        return complex(self._value)

    def __format__(self, spec):
        if self._value.ndim == 0:
            return format(self._value.item() if spec else self._value, spec)
        if spec:
            raise TypeError(f"unsupported format string passed to {type(self).__name__}.__format__")
        return str(self)

    def __iter__(self):
        if type(self._value) in (tuple, list):      # a primitive's several values (see apply)
            raise TypeError(_several_values("the primitive that made this tensor", self._value))
        if self._value.ndim == 0:
            raise TypeError("Cannot iterate over a scalar tensor.")
        for i in range(len(self._value)):
            yield apply(operator.getitem, (self, i))

    def __getitem__(self, idx):
        return apply(operator.getitem, (self, _unwrap_index(idx)))

    def __hash__(self):
        raise TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.")

    def ref(self):
        return _Reference(self)

    # arithmetic
    def __add__(self, o): return _binary(np.add, self, o)
    def __radd__(self, o): return _rbinary(np.add, self, o)
    def __sub__(self, o): return _binary(np.subtract, self, o)
    def __rsub__(self, o): return _rbinary(np.subtract, self, o)
    def __mul__(self, o): return _binary(np.multiply, self, o)
    def __rmul__(self, o): return _rbinary(np.multiply, self, o)
    def __truediv__(self, o): return _binary(np.true_divide, self, o)
    def __rtruediv__(self, o): return _rbinary(np.true_divide, self, o)
    def __floordiv__(self, o): return _binary(np.floor_divide, self, o)
    def __rfloordiv__(self, o): return _rbinary(np.floor_divide, self, o)
    def __mod__(self, o): return _binary(np.mod, self, o)
    def __rmod__(self, o): return _rbinary(np.mod, self, o)
    def __pow__(self, o): return _binary(np.power, self, o)
    def __rpow__(self, o): return _rbinary(np.power, self, o)
    def __matmul__(self, o): return _binary(np.matmul, self, o)
    def __rmatmul__(self, o): return _rbinary(np.matmul, self, o)
    def __neg__(self): return apply(np.negative, (self,))
    def __pos__(self): return self
    def __abs__(self): return apply(np.abs, (self,))
    def __invert__(self): return apply(np.invert, (self,))
    def __and__(self, o): return _binary(np.logical_and if self._value.dtype == np.bool_ else np.bitwise_and, self, o)
    def __rand__(self, o): return _rbinary(np.logical_and if self._value.dtype == np.bool_ else np.bitwise_and, self, o)
    def __or__(self, o): return _binary(np.logical_or if self._value.dtype == np.bool_ else np.bitwise_or, self, o)
    def __ror__(self, o): return _rbinary(np.logical_or if self._value.dtype == np.bool_ else np.bitwise_or, self, o)
    def __xor__(self, o): return _binary(np.logical_xor if self._value.dtype == np.bool_ else np.bitwise_xor, self, o)

    # comparisons are elementwise, as in TF 2
    def __lt__(self, o): return _binary(np.less, self, o)
    def __le__(self, o): return _binary(np.less_equal, self, o)
    def __gt__(self, o): return _binary(np.greater, self, o)
    def __ge__(self, o): return _binary(np.greater_equal, self, o)

    def __eq__(self, o):
        if o is None:
            return False
        try:
            return _binary(np.equal, self, o)
        except (TypeError, errors.InvalidArgumentError):
            return False

    def __ne__(self, o):
        if o is None:
            return True
        try:
            return _binary(np.not_equal, self, o)
        except (TypeError, errors.InvalidArgumentError):
            return True

    @property
    def T(self):
        return apply(np.transpose, (self,))


def _unwrap_index(idx):
    if isinstance(idx, tuple):
        return tuple(_unwrap_index(i) for i in idx)
    if isinstance(idx, _TensorBase):
        return idx._value
    if isinstance(idx, list):
        return np.asarray(_unwrap_nested(idx))
    return idx


class _Reference:
    """``tensor.ref()``: a hashable handle compared by identity."""

    __slots__ = ("_obj",)

    def __init__(self, obj):
        self._obj = obj

    def deref(self):
        return self._obj

    def __hash__(self):
        return id(self._obj)

    def __eq__(self, other):
        return isinstance(other, _Reference) and other._obj is self._obj


def _numpy_text(value):
    """The ``numpy=`` part of a repr: a scalar shows its exact Python value, arrays numpy's repr."""
    if np.ndim(value) == 0:
        v = value.item() if hasattr(value, "item") else value
        if isinstance(v, bytes):
            return repr(v)
        return repr(v)
    text = repr(np.asarray(value))
    return "\n" + text if "\n" in text else text


def _value_text(value):
    """The value part of ``str(tensor)``: numpy's str of the array."""
    text = str(np.asarray(value)) if np.ndim(value) else str(value)
    return "\n" + text if "\n" in text else text


class Tensor(_TensorBase):
    """An immutable value on which operations are recorded by active GradientTapes."""

    __slots__ = ("_value", "__weakref__")

    def __init__(self, value, dtype=None):
        self._value = _to_numpy(value, dtype)

    def __repr__(self):
        return f"<tf.Tensor: shape={self.shape}, dtype={self.dtype.name}, numpy={_numpy_text(self._value)}>"

    def __str__(self):
        return f"tf.Tensor({_value_text(self._value)}, shape={self.shape}, dtype={self.dtype.name})"

    def __reduce__(self):
        return (constant, (self._value,))

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


registry.TENSOR_TYPES.add(Tensor)
# TF's concrete class names, which users see in type(t).__name__ and in Python's own messages
# ("'EagerTensor' object does not support item assignment"); tf.Tensor stays the public name.
Tensor.__name__ = Tensor.__qualname__ = "EagerTensor"
EagerTensor = Tensor


# --- Variable -----------------------------------------------------------------------------

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


registry.TENSOR_TYPES.add(Variable)
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


registry.TENSOR_TYPES.add(_UnreadVariable)


registry._DISPATCH[0] = apply
