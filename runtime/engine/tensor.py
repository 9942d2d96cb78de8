"""The tensor core: ``Tensor``, what tensors and variables share (``_TensorBase``: operators, the
numpy protocols' short ways, conversions), and :func:`apply`, through which every operation on
tensors goes.

A Tensor is an immutable wrapper around a numpy value (an ndarray, or a numpy scalar for
rank 0).  ``apply`` computes an op's value with plain numpy and lets each recording tape decide
whether to keep the op.  Dtypes, shapes, conversion from Python data, printing and Variable live in
their own modules beside this one.
"""

import operator

import numpy as np

from . import errors, protocol
from ..rules import registry
from .conversion import _cast_checked, _string_array, _to_numpy, _unwrap, _unwrap_nested
from .dtypes import as_dtype
from .numerics import _QUIET, _quiet_reset, _quiet_set
from .protocol import PLAIN_FUNCS, PLAIN_UFUNCS, plain_keywords, plain_rule, plain_ufunc
from .recording import _state
from .shapes import TensorShape
from .text import _numpy_text, _value_text

__all__ = ["Tensor", "EagerTensor", "constant", "apply"]

_builtin_bool = bool
_EXPLAIN = None  # runtime.engine.explain while tf.debugging.enable_gradient_explanations() is on
_get_rule = registry.RULES.get   # the hot path: a dict get; a miss loads the callable's family


def _wrap(value):
    t = Tensor.__new__(Tensor)
    t._value = value
    return t


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


def _op_error(name, vals, e):
    """TF's complaint about an op's inputs, with their shapes and what to do."""
    shapes = ", ".join(str(TensorShape(np.shape(v))) for v in vals if isinstance(v, (np.ndarray, np.generic)))
    fix = ("use indices within the tensor's shape" if isinstance(e, IndexError) else
           "make the shapes agree (tf.reshape, tf.expand_dims, tf.broadcast_to)")
    return f"{name}: {e} (input shapes: {shapes}); {fix}"


# --- operators ----------------------------------------------------------------------------

def _binary(fn, x, y):
    """An operator: TF's rules for mixing operands (tensors of different dtypes are an error)."""
    ty = type(y)
    if ty is Tensor or isinstance(y, _TensorBase):
        xd, yd = x._value.dtype, y._value.dtype
        if xd is not yd and xd != yd and not _state.in_rules:   # rules mix real and complex as numpy does
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


# Operators (``x + y``) call _operator / _roperator: TF's rules (_binary), or numpy's promotion once
# numpy_promotion(True) (tf.experimental.numpy.experimental_enable_numpy_behavior) swaps them; tf.add
# and the other functions keep TF's rules, as in TF.
_operator, _roperator = _binary, _rbinary


def _numpy_promoted(x, y):
    """``x`` and ``y`` cast (a recorded cast for a tensor) to numpy's result dtype for ``x (op) y``
    (Python numbers weak, as numpy 2 and TF's numpy behaviour have them)."""
    yv = y._value if isinstance(y, _TensorBase) else y
    try:
        want = np.result_type(x._value, np.asarray(yv) if type(yv) in (list, tuple) else yv)
    except TypeError:
        return x, y
    from ..rules.shape import cast         # (the shape family loads on first use)
    if x._value.dtype != want:
        x = apply(cast, (x, want))
    if isinstance(y, _TensorBase) and yv.dtype != want:
        y = apply(cast, (y, want))
    elif isinstance(y, (np.ndarray, np.generic)) and y.dtype != want:
        y = y.astype(want)
    return x, y


def _promoting(fn, x, y):
    return _binary(fn, *_numpy_promoted(x, y))


def _rpromoting(fn, x, y):
    return _rbinary(fn, *_numpy_promoted(x, y))


def numpy_promotion(on):
    """Operators on tensors promote dtypes as numpy does (``on``) or refuse to mix them, as TF does."""
    global _operator, _roperator
    _operator, _roperator = (_promoting, _rpromoting) if on else (_binary, _rbinary)


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

    def __init_subclass__(cls, **kwargs):
        # Every tensor class, a user's subclass of tf.Variable too, joins registry.TENSOR_TYPES: the
        # set by which modules below this one (conversion, recording, rule primitives) know a tensor.
        super().__init_subclass__(**kwargs)
        registry.TENSOR_TYPES.add(cls)

    # numpy protocols: numpy calls on tensors come back here and are recorded
    def __array__(self, dtype=None, copy=None):
        if _state.tapes and (dtype is None or np.dtype(dtype).kind not in "iub"):
            protocol.check_conversion(self)       # would drop a recorded gradient (an integer has none)
        v = np.asarray(self._value)
        v = v if dtype is None else v.astype(dtype)
        if _EXPLAIN is not None:
            _EXPLAIN.leave(self, v, "array")
        return v

    # The common cases of protocol.array_ufunc / array_function, the short way: a call recorded
    # as it is (no list among the arguments to stack, no keyword to move or refuse).
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        if not kwargs and (ufunc in PLAIN_UFUNCS or plain_ufunc(ufunc)) and method == "__call__":
            for a in inputs:
                if type(a) is list or type(a) is tuple:
                    break
            else:
                return apply(ufunc, inputs)
        return protocol.array_ufunc(ufunc, method, inputs, kwargs)

    def __array_function__(self, func, types, args, kwargs):
        rule = PLAIN_FUNCS.get(func) or plain_rule(func)
        if rule is not None and (not kwargs or not rule.differentiable or plain_keywords(rule, kwargs)):
            for a in args:
                if type(a) is list or type(a) is tuple:
                    break
            else:
                result = apply(func, args, kwargs)
                value = result._value
                if type(value) is np.ndarray or not isinstance(value, (tuple, list)):
                    return result
                return protocol.results(rule, result, args)  # several arrays: tensors, or refused
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
    def __add__(self, o): return _operator(np.add, self, o)
    def __radd__(self, o): return _roperator(np.add, self, o)
    def __sub__(self, o): return _operator(np.subtract, self, o)
    def __rsub__(self, o): return _roperator(np.subtract, self, o)
    def __mul__(self, o): return _operator(np.multiply, self, o)
    def __rmul__(self, o): return _roperator(np.multiply, self, o)
    def __truediv__(self, o): return _operator(np.true_divide, self, o)
    def __rtruediv__(self, o): return _roperator(np.true_divide, self, o)
    def __floordiv__(self, o): return _operator(np.floor_divide, self, o)
    def __rfloordiv__(self, o): return _roperator(np.floor_divide, self, o)
    def __mod__(self, o): return _operator(np.mod, self, o)
    def __rmod__(self, o): return _roperator(np.mod, self, o)
    def __pow__(self, o): return _operator(np.power, self, o)
    def __rpow__(self, o): return _roperator(np.power, self, o)
    def __matmul__(self, o): return _operator(np.matmul, self, o)
    def __rmatmul__(self, o): return _roperator(np.matmul, self, o)
    def __neg__(self): return apply(np.negative, (self,))
    def __pos__(self): return self
    def __abs__(self): return apply(np.abs, (self,))
    def __invert__(self): return apply(np.invert, (self,))
    def __and__(self, o): return _operator(np.logical_and if self._value.dtype == np.bool_ else np.bitwise_and, self, o)
    def __rand__(self, o): return _roperator(np.logical_and if self._value.dtype == np.bool_ else np.bitwise_and, self, o)
    def __or__(self, o): return _operator(np.logical_or if self._value.dtype == np.bool_ else np.bitwise_or, self, o)
    def __ror__(self, o): return _roperator(np.logical_or if self._value.dtype == np.bool_ else np.bitwise_or, self, o)
    def __xor__(self, o): return _operator(np.logical_xor if self._value.dtype == np.bool_ else np.bitwise_xor, self, o)

    # comparisons are elementwise, as in TF 2
    def __lt__(self, o): return _operator(np.less, self, o)
    def __le__(self, o): return _operator(np.less_equal, self, o)
    def __gt__(self, o): return _operator(np.greater, self, o)
    def __ge__(self, o): return _operator(np.greater_equal, self, o)

    def __eq__(self, o):
        if o is None:
            return False
        try:
            return _operator(np.equal, self, o)
        except (TypeError, errors.InvalidArgumentError):
            return False

    def __ne__(self, o):
        if o is None:
            return True
        try:
            return _operator(np.not_equal, self, o)
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


NDARRAY_METHODS = frozenset((
    "reshape", "ravel", "flatten", "transpose", "astype", "clip", "max", "min", "mean", "size", "data", "tolist",
    "sum", "prod", "std", "var", "any", "all", "argmax", "argmin", "cumsum", "cumprod", "dot", "squeeze",
    "repeat", "swapaxes", "diagonal", "trace", "take", "round", "conj", "conjugate", "item", "real", "imag"))
"""ndarray methods that numpy code calls on arrays: named in a tensor's AttributeError."""


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

    def __getattr__(self, name):            # (only for names a tensor lacks)
        if name in NDARRAY_METHODS:
            raise AttributeError(
                f"{type(self).__name__} object has no attribute {name!r}: tensors have ndarray methods only "
                f"after tf.experimental.numpy.experimental_enable_numpy_behavior() (as in TF); or call "
                f"the numpy function on the tensor, np.{name}(t, ...)")
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


# TF's concrete class names, which users see in type(t).__name__ and in Python's own messages
# ("'EagerTensor' object does not support item assignment"); tf.Tensor stays the public name.
Tensor.__name__ = Tensor.__qualname__ = "EagerTensor"
EagerTensor = Tensor


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


registry._DISPATCH[0] = apply
protocol.bind(apply, _wrap)
