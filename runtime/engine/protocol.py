"""The numpy protocols on tensors: how ``np.f(tensor)`` becomes a recorded operation.

``Tensor.__array_function__`` / ``__array_ufunc__`` hand numpy calls to :func:`array_function`
and :func:`array_ufunc`, which record the call as one primitive (``tensor.apply``) after
rewriting the few calls whose form the tape cannot record directly:

* keyword arguments that the rule differentiates (``np.average(a, weights=w)``) become
  positional, so they receive gradients like any other argument;
* ``np.split`` and its family become slices of the tensor (one recorded getitem per piece);
* ``np.einsum``'s sublist form becomes its subscripts string;
* ``np.atleast_1d(a, b)`` becomes one call per array; ``np.where(c)`` is ``np.nonzero(c)``.

* a list or tuple holding recorded tensors, given where numpy expects one array
  (``np.add([v, 2 * v], v)``, ``np.append([1.0, v], v)``), becomes ``np.stack`` of its items;
* ``np.full(shape, t, like=t)`` is ``t`` broadcast to ``shape``.

numpy hands a call to a tensor only when the tensor is a direct argument (or an item of an
argument that is a sequence of arrays, as in ``np.stack``).  Otherwise numpy converts the tensor
to an ndarray itself, through ``__array__``, with no hook that could return a tensor:
``np.array(t)``, ``np.asarray(t)``, ``np.array([t, ...])``, ``np.full(shape, t)``,
``np.mean([t, u])``.  Everything that would so silently turn a recorded tensor into a constant
is refused instead (``check_conversion``), as are a numpy function without a rule and a tensor
in an argument no rule differentiates.
"""

import functools
import inspect

import numpy as np

from ..rules import registry
from ..rules.support import einsum_subscripts

_tensor = None      # runtime.engine.tensor, bound on first use (it imports this module)


def _t():
    global _tensor
    if _tensor is None:
        from . import tensor as _tensor_module
        _tensor = _tensor_module
    return _tensor


# --- the refusals ------------------------------------------------------------------------------------

def _tracked(x):
    """True when a recording tape tracks ``x`` (or would watch it on first use, a trainable Variable)."""
    t = _t()
    for tape in t._state.tapes:
        tracked = getattr(tape, "_tracked", None)
        if tracked is None:         # a ForwardAccumulator: the tensors that carry a tangent
            entry = tape._tangents.get(id(x))
            if entry is not None and entry[0] is x:
                return True
            continue
        if id(x) in tracked:
            return True
        if isinstance(x, t.Variable) and x._trainable and tape._watch_accessed:
            return True
    return False


def _contains_tracked(x):
    if isinstance(x, (list, tuple)):
        return any(_contains_tracked(v) for v in x)
    return isinstance(x, _t()._TensorBase) and _tracked(x)


CONVERSION_ADVICE = (
    "Build arrays from tensors with np.stack([...]) or tf.stack (np.full(shape, t) as "
    "np.full(shape, t, like=t) or t * np.ones(shape)), pass a tensor itself to the numpy function "
    "(numpy hands a call to the tape only when a tensor is one of its direct arguments), or take "
    "its value deliberately with t.numpy() (no gradient) or inside `with tape.stop_recording():`.")


def check_conversion(x):
    """``__array__`` of a tensor: refuse while a recording tape tracks it (the gradient would be lost)."""
    if _t()._state.tapes and _tracked(x):
        raise TypeError(
            "a tensor that a GradientTape (or ForwardAccumulator) is recording was converted to a plain numpy array "
            "(np.array / np.asarray / np.full, or a numpy function whose only tensors are inside "
            "lists, such as np.mean([t, u])), which would silently drop its gradient. " + CONVERSION_ADVICE)


def _refuse_copyto(args, kwargs):
    """np.copyto (what np.full(shape, t, dtype=...) and np.full_like call) writes into an ndarray."""
    if _t()._state.tapes and _contains_tracked(list(args) + list(kwargs.values())):
        raise TypeError("np.copyto (or np.full / np.full_like with a tensor fill value) writes a tensor "
                        "that a GradientTape is recording into a plain numpy array, which would silently "
                        "drop its gradient. " + CONVERSION_ADVICE)
    t = _t()
    return np.copyto(*[t._unwrap(a) for a in args], **{k: t._unwrap(v) for k, v in kwargs.items()})


def no_rule_error(func):
    name = registry.name_of(func)
    return TypeError(f"{name} has no derivative rule in adjoin, so it cannot run on tensors ("
                     f"{registry.add_rule_hint(func)}). If you do not need its gradient, call it on the "
                     f"values: {name}(t.numpy(), ...).")


# --- keyword arguments that receive gradients --------------------------------------------------------

@functools.lru_cache(maxsize=None)
def _positional_params(rule):
    """(names, defaults) of the primitive's positional parameters, read from one of its rules."""
    fn = next((v for v in rule.vjps if v is not None), None)
    if fn is None:
        return (), ()
    params = list(inspect.signature(fn).parameters.values())[2:]
    names, defaults = [], []
    for p in params:
        if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            break
        names.append(p.name)
        defaults.append(p.default)
    return tuple(names), tuple(defaults)


def _bind(rule, func, args, kwargs):
    """Move keyword arguments that have a VJP rule to their positions; refuse tracked tensors in
    keywords that no rule differentiates."""
    names, defaults = _positional_params(rule)
    last = -1
    for i, name in enumerate(names):
        if name in kwargs and rule.vjp(i) is not None:
            last = i
    if last >= len(args):
        kwargs = dict(kwargs)
        args = list(args)
        for i in range(len(args), last + 1):
            if names[i] in kwargs:
                args.append(kwargs.pop(names[i]))
            elif defaults[i] is not inspect.Parameter.empty:
                args.append(defaults[i])
            else:
                return tuple(args), kwargs
        args = tuple(args)
    if _t()._state.tapes:
        for key, value in kwargs.items():
            if _contains_tracked(value):
                raise TypeError(f"{registry.name_of(func)}: no gradient flows through the keyword argument "
                                f"{key}=, but it is a tensor the GradientTape records; pass a constant "
                                f"(t.numpy()) or differentiate another way")
    return args, kwargs


# --- rewrites of calls the tape cannot record as they are ---------------------------------------------

def _split_pieces(ary, sections, axis):
    """The pieces of np.split / np.array_split as slices of ``ary`` (numpy's own boundaries)."""
    n = ary.shape[axis]
    if isinstance(sections, (int, np.integer)):
        parts = np.array_split(np.arange(n), sections)
        bounds = [(int(p[0]), int(p[-1]) + 1) if len(p) else (n, n) for p in parts]
    else:
        edges = [0] + [int(i) for i in sections] + [n]
        bounds = list(zip(edges[:-1], edges[1:]))
    lead = (slice(None),) * (axis % ary.ndim)
    return [ary[lead + (slice(a, b),)] for a, b in bounds]


def _split(func, axis_of):
    def run(args, kwargs):
        bound = inspect.signature(func).bind(*args, **kwargs)
        bound.apply_defaults()
        a = bound.arguments
        ary = a["ary"]
        axis = axis_of(ary, a.get("axis", 0))
        sections = a["indices_or_sections"]
        if func is np.split and isinstance(sections, (int, np.integer)) and ary.shape[axis] % sections:
            raise ValueError("array split does not result in an equal division")
        return _split_pieces(ary, sections, axis)
    return run


def _einsum(args, kwargs):
    converted = einsum_subscripts(args)
    if converted is None:
        return NotImplemented
    subscripts, operands = converted
    return np.einsum(subscripts, *operands, **kwargs)


def _atleast(func):
    def run(args, kwargs):
        if len(args) == 1:
            return NotImplemented
        return tuple(func(a) for a in args)
    return run


def _unstack(args, kwargs):
    bound = inspect.signature(np.unstack).bind(*args, **kwargs)
    bound.apply_defaults()
    x, axis = bound.arguments["x"], bound.arguments["axis"]
    lead = (slice(None),) * (axis % x.ndim)
    return tuple(x[lead + (i,)] for i in range(x.shape[axis]))


def _full(args, kwargs):
    """``np.full(shape, fill, dtype, like=tensor)``: the fill value broadcast (recorded when a tensor)."""
    bound = inspect.signature(np.full).bind(*args, **kwargs)
    a = bound.arguments
    fill, dtype = a["fill_value"], a.get("dtype")
    if not isinstance(fill, _t()._TensorBase):
        return np.full(a["shape"], fill, dtype)
    ones = np.ones(a["shape"], dtype=dtype if dtype is not None else _t()._unwrap(fill).dtype)
    return fill * ones


def _where(args, kwargs):
    if len(args) + len(kwargs) != 1:
        return NotImplemented
    return np.nonzero(*args, **kwargs)


REWRITES = {
    np.split: _split(np.split, lambda ary, axis: axis),
    np.array_split: _split(np.array_split, lambda ary, axis: axis),
    np.hsplit: _split(np.hsplit, lambda ary, axis: 0 if ary.ndim == 1 else 1),
    np.vsplit: _split(np.vsplit, lambda ary, axis: 0),
    np.dsplit: _split(np.dsplit, lambda ary, axis: 2),
    np.einsum: _einsum,
    np.atleast_1d: _atleast(np.atleast_1d),
    np.atleast_2d: _atleast(np.atleast_2d),
    np.atleast_3d: _atleast(np.atleast_3d),
    np.where: _where,
    np.full: _full,
    np.copyto: _refuse_copyto,
}
if hasattr(np, "unstack"):
    REWRITES[np.unstack] = _unstack

def _frexp(x):
    """np.frexp on a tensor: the mantissa is x scaled by 2**-e, e (an integer) read off its value."""
    exponent = np.frexp(_t()._unwrap(x))[1]
    return np.ldexp(x, -exponent), _t()._wrap(exponent)


# ufuncs with two results: each result recorded on its own
UFUNC_REWRITES = {
    np.modf: lambda x: (np.subtract(x, np.trunc(x)), np.trunc(x)),
    np.divmod: lambda x, y: (np.floor_divide(x, y), np.mod(x, y)),
    np.frexp: _frexp,
}


# --- lists of tensors where numpy expects one array -----------------------------------------------------

SEQUENCE_PARAMS = ("arrays", "tup", "condlist", "choicelist", "funclist")
"""Parameters that take a sequence of arrays (np.stack, np.vstack, np.select, ...): their items,
not the sequence, are the arrays."""


@functools.lru_cache(maxsize=None)
def _sequence_positions(func):
    try:
        names = list(inspect.signature(func).parameters)
    except (TypeError, ValueError):         # C functions without a signature (numpy < 2.3)
        return (0,) if func is np.concatenate else ()
    return tuple(i for i, name in enumerate(names) if name in SEQUENCE_PARAMS)


def _stacked(x):
    """A (nested) list or tuple of numbers and tensors as one recorded array: np.stack of its items."""
    if isinstance(x, (list, tuple)):
        return np.stack([_stacked(v) for v in x])
    return x


def _stack_lists(func, args, kwargs):
    """Lists holding recorded tensors where numpy expects one array become recorded stacks (numpy
    itself would convert them with __array__ and drop the gradient)."""
    seq = _sequence_positions(func)
    out = []
    for i, a in enumerate(args):
        if type(a) in (list, tuple) and _contains_tracked(a):
            a = type(a)(_stacked(v) for v in a) if i in seq else _stacked(a)
        out.append(a)
    kwargs = {k: _stacked(v) if type(v) in (list, tuple) and _contains_tracked(v) else v
              for k, v in kwargs.items()}
    return tuple(out), kwargs


def _holds_list(args, kwargs):
    for a in args:
        if type(a) is list or type(a) is tuple:
            return True
    return any(type(v) is list or type(v) is tuple for v in kwargs.values()) if kwargs else False


# --- the protocols ---------------------------------------------------------------------------------

def array_function(func, args, kwargs):
    t = _t()
    if func in t._METADATA:
        return func(*[t._unwrap(a) for a in args], **{k: t._unwrap(v) for k, v in kwargs.items()})
    if _t()._state.tapes and _holds_list(args, kwargs):
        args, kwargs = _stack_lists(func, args, kwargs)
    composite = registry.COMPOSITES.get(func)
    if composite is not None:       # several results (np.linalg.eigh, svd, ...): see registry
        return composite(*args, **kwargs)
    rewrite = REWRITES.get(func)
    if rewrite is not None:
        out = rewrite(args, kwargs)
        if out is not NotImplemented:
            return out
    rule = registry.lookup(func)
    if rule is None:
        raise no_rule_error(func)
    if kwargs and rule.differentiable:
        args, kwargs = _bind(rule, func, args, kwargs)
    return _results(rule, t.apply(func, args, kwargs), args)


def array_ufunc(ufunc, method, inputs, kwargs):
    if method != "__call__" or kwargs.get("out") is not None:
        raise TypeError(
            f"np.{ufunc.__name__}.{method} (or out=) is not supported on adjoin tensors; "
            f"call the ufunc directly and use its result."
        )
    kwargs.pop("out", None)
    t = _t()
    if t._state.tapes and _holds_list(inputs, {}):
        inputs, _ = _stack_lists(ufunc, inputs, {})
    if ufunc in UFUNC_REWRITES and not kwargs:
        return UFUNC_REWRITES[ufunc](*inputs)
    rule = registry.lookup(ufunc)
    if rule is None:
        raise no_rule_error(ufunc)
    return _results(rule, t.apply(ufunc, inputs, kwargs), inputs)


def _results(rule, result, args):
    """Tuple-valued results become tuples of tensors; a differentiable one cannot be recorded."""
    value = result._value
    if not isinstance(value, (tuple, list)):
        return result
    if rule.differentiable and _contains_tracked(list(args)):
        raise TypeError(f"{rule.name} returns several arrays, which the GradientTape cannot record yet; "
                        f"compute each result with a separate call, or differentiate with the transpiler")
    wrap = _t()._wrap
    return type(value)(wrap(v) for v in value)
