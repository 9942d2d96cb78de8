"""Tensors among a call's arguments: finding them, their numpy values, wrapping results, and
whether a function reads a ``tf.Variable`` it is not given (``tape_call`` records such calls op
by op, so the read is watched as in TF)."""

import types

import numpy as np

from runtime.engine.tensor import Tensor, _TensorBase
from runtime.engine.variable import Variable

__all__ = ["has_tensor", "contains_tensor", "values", "wrap_out", "tensor", "is_float_tensor", "as_array",
           "reads_variables"]


def has_tensor(args, kwargs):
    """Whether any argument (at any depth of lists/tuples/dicts) is a runtime tensor."""
    for a in args:
        if contains_tensor(a):
            return True
    for v in kwargs.values():
        if contains_tensor(v):
            return True
    return False


def contains_tensor(x):
    if isinstance(x, _TensorBase):
        return True
    if type(x) in (list, tuple):
        return any(contains_tensor(v) for v in x)
    if type(x) is dict:
        return any(contains_tensor(v) for v in x.values())
    return False


def values(x):
    """The numpy value of ``x`` with tensors replaced at any depth of lists/tuples/dicts."""
    if isinstance(x, _TensorBase):
        return x._value
    t = type(x)
    if t is list or t is tuple:
        return t(values(v) for v in x)
    if t is dict:
        return {k: values(v) for k, v in x.items()}
    return x


def wrap_out(x):
    """Outputs of a tape-free call: arrays become Tensors, containers keep their structure."""
    if isinstance(x, _TensorBase):
        return x
    if isinstance(x, (np.ndarray, np.generic)):
        return tensor(x)
    t = type(x)
    if t is list or t is tuple:
        return t(wrap_out(v) for v in x)
    if t is dict:
        return {k: wrap_out(v) for k, v in x.items()}
    if t is float:
        return tensor(np.float64(x))
    return x


def tensor(value):
    t = Tensor.__new__(Tensor)
    t._value = value
    return t


def is_float_tensor(x):
    return isinstance(x, _TensorBase) and x._value.dtype.kind in "fc"


def as_array(x):
    if isinstance(x, (np.ndarray, np.generic)):
        return x
    if isinstance(x, _TensorBase):
        return x._value
    if isinstance(x, float):
        return np.float64(x)
    arr = np.asarray(x)
    return arr[()] if arr.ndim == 0 else arr


# --- variables read without being passed ---------------------------------------------------

def reads_variables(fn, args):
    """Does ``fn`` (or a function it calls) read a Variable it is not given as a parameter?

    Looks at closure cells, the globals its code names, and the attributes its code names
    on argument objects (``self.w``, ``model.layer.kernel``), a few levels deep.
    """
    seen = set()
    raw = getattr(fn, "__func__", fn)
    names = _code_names(raw.__code__) if isinstance(raw, types.FunctionType) else None
    for a in args:
        if not isinstance(a, (_TensorBase, np.ndarray, np.generic, int, float, complex, str)):
            if _holds_variable(a, 3, seen, names):
                return True
    return _function_reads(fn, seen, 0)


def _function_reads(fn, seen, depth):
    if isinstance(fn, _SKIP_CALLEES):  # modules (numpy's __getattr__ is slow), classes, ufuncs
        return False
    fn = getattr(fn, "_fn", fn)  # a Differentiable callee
    fn = getattr(fn, "__func__", fn)
    if id(fn) in seen or depth > 4 or not isinstance(fn, types.FunctionType):
        return False
    seen.add(id(fn))
    names = _code_names(fn.__code__)
    for cell in fn.__closure__ or ():
        try:
            v = cell.cell_contents
        except ValueError:
            continue
        if _holds_variable(v, 3, seen, names) or _function_reads(v, seen, depth + 1):
            return True
    g = fn.__globals__
    for name in names:
        if name in g:
            v = g[name]
            if _holds_variable(v, 3, seen, names) or _function_reads(v, seen, depth + 1):
                return True
    return False


def _code_names(code):
    names = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            names |= _code_names(c)
    return names


_SKIP_CALLEES = (types.ModuleType, type, types.BuiltinFunctionType, np.ufunc, np.ndarray, np.generic,
                 int, float, complex, str, bytes, bool, type(None))

_SKIP = (types.ModuleType, type, types.FunctionType, types.BuiltinFunctionType, types.MethodType,
         np.ndarray, np.generic, np.ufunc, str, bytes, int, float, complex, bool)


def _holds_variable(x, depth, seen, names):
    """A Variable in ``x``: itself, an item of a container, or an attribute the code names."""
    if type(x) is Variable:
        return True
    if depth <= 0 or isinstance(x, _SKIP) or isinstance(x, _TensorBase) or id(x) in seen:
        return False
    seen.add(id(x))
    t = type(x)
    if t in (list, tuple, set, frozenset):
        return any(_holds_variable(v, depth - 1, seen, names) for v in x)
    if t is dict:
        return any(_holds_variable(v, depth - 1, seen, names) for v in x.values())
    d = getattr(x, "__dict__", None)
    if isinstance(d, dict):
        return any(_holds_variable(v, depth - 1, seen, names) for k, v in d.items()
                   if names is None or k in names)
    return False
