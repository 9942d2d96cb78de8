"""The numpy protocols on tensors: how ``np.f(tensor)`` becomes a recorded operation.

``Tensor.__array_function__`` / ``__array_ufunc__`` record the common calls themselves (a call
this module classifies as plain: ``plain_rule``, ``plain_ufunc``) and hand the rest to
:func:`array_function` and :func:`array_ufunc`, which record the call as one primitive (the
tensor core's ``apply``) after rewriting the few calls whose form the tape cannot record directly
(the rewrites live in ``rewrites``):

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
from .conversion import _unwrap
from .recording import _state, contains_tracked, tracked
from .rewrites import CONVERSION_ADVICE, REWRITES, UFUNC_REWRITES

_get_rule = registry.RULES.get   # a dict get; a miss loads the callable's rule family


def _lookup(fn):
    return _get_rule(fn) or registry.lookup(fn)


_COMPOSITES = registry.COMPOSITES

# --- what the tensor core lends this module ------------------------------------------------------------

apply = None
"""The tensor core's ``apply(fn, args, kwargs)``, and below its ``wrap(value)``: tensors call into this
module, and this module records through them, so ``runtime.engine.tensor`` hands them over when it
loads (:func:`bind`) and the import points one way (tensor -> protocol)."""
wrap = None


def bind(apply_fn, wrap_fn):
    """Called once by ``runtime.engine.tensor``: the functions that run and record a primitive."""
    global apply, wrap
    apply, wrap = apply_fn, wrap_fn


# --- the refusals ------------------------------------------------------------------------------------

def check_conversion(x):
    """``__array__`` of a tensor: refuse while a recording tape tracks it (the gradient would be lost)."""
    if _state.tapes and tracked(x):
        scipy_name = _scipy_caller()
        if scipy_name is not None:
            raise TypeError(_scipy_advice(scipy_name))
        raise TypeError(
            "a tensor that a GradientTape (or ForwardAccumulator) is recording was converted to a plain numpy array "
            "(np.array / np.asarray / np.full, or a numpy function whose only tensors are inside "
            "lists, such as np.mean([t, u])), which would silently drop its gradient. " + CONVERSION_ADVICE)


def _scipy_caller():
    """``scipy.stats.norm.logpdf``-style name of the outermost scipy function on the stack (the one the
    user called), or None when no scipy code is converting the tensor."""
    import sys
    frame, found = sys._getframe(2), None
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        if module.startswith("scipy."):
            found = frame
        elif found is not None:
            break
        frame = frame.f_back
    if found is None:
        return None
    code, owner = found.f_code, found.f_locals.get("self")
    module = found.f_globals["__name__"].split(".")
    where = ".".join(module[:2]) if len(module) > 1 and not module[1].startswith("_") else "scipy"
    if owner is not None and hasattr(type(owner), code.co_name):
        dist = getattr(owner, "dist", None) or getattr(owner, "_dist", None)    # a frozen distribution
        label = (getattr(dist if dist is not None else owner, "name", None) or type(owner).__name__)
        label = label.removesuffix("_gen") + ("(...)" if dist is not None else "")
        return f"{where}.{label}.{code.co_name}"
    return f"{where}.{code.co_name}"


def _scipy_advice(name):
    mirror = "runtime." + name
    return (f"{name} converts its arguments to numpy arrays (np.asarray), which would silently drop the "
            f"gradient of a tensor that a GradientTape (or ForwardAccumulator) is recording. Call "
            f"{mirror} instead (from runtime import scipy as sp): runtime.scipy mirrors scipy's public names "
            f"on tensors (scipy.special's ufuncs, scipy.stats' distributions, scipy.signal's convolutions, "
            f"scipy.fft, scipy.linalg, scipy.integrate). If runtime.scipy lacks it, call scipy on the values "
            f"(t.numpy(), no gradient).")


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
    if _state.tapes:
        for key, value in kwargs.items():
            if contains_tracked(value):
                raise TypeError(f"{registry.name_of(func)}: no gradient flows through the keyword argument "
                                f"{key}=, but it is a tensor the GradientTape records; pass a constant "
                                f"(t.numpy()) or differentiate another way")
    return args, kwargs


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
        if type(a) in (list, tuple) and contains_tracked(a):
            a = type(a)(_stacked(v) for v in a) if i in seq else _stacked(a)
        out.append(a)
    kwargs = {k: _stacked(v) if type(v) in (list, tuple) and contains_tracked(v) else v
              for k, v in kwargs.items()}
    return tuple(out), kwargs


def _holds_list(args, kwargs):
    for a in args:
        if type(a) is list or type(a) is tuple:
            return True
    return any(type(v) is list or type(v) is tuple for v in kwargs.values()) if kwargs else False


# --- the calls tensors record the short way (Tensor.__array_function__ / __array_ufunc__) ----------------

METADATA = {np.shape, np.ndim, np.size, np.result_type, np.iscomplexobj, np.isrealobj,
            np.may_share_memory, np.shares_memory, np.array_equal, np.allclose, np.isclose,
            np.array_equiv, np.min_scalar_type, np.can_cast}
"""numpy functions that read tensors without producing new ones: run on the values directly."""


def plain_rule(fn):
    """``fn``'s Rule when ``array_function`` would record a call of it as it is (no
    rewrite, several results or metadata read), else None.  Kept in ``PLAIN_FUNCS``: the numpy
    protocol is the hot path of numpy code on tensors, and rules are only ever added."""
    if fn in METADATA or fn in REWRITES:
        return None
    rule = _lookup(fn)          # (loads fn's family, which may register a composite form of it)
    if fn in _COMPOSITES:
        return None
    if rule is not None:
        PLAIN_FUNCS[fn] = rule
    return rule


def plain_keywords(rule, kwargs):
    """True when the keywords can go to ``apply`` as they are: constants (``axis=-1``) for
    parameters no VJP rule differentiates.  Else ``array_function`` moves them to their positions (so
    they receive gradients), or refuses them."""
    differentiated = _DIFFERENTIATED_PARAMS.get(rule)
    if differentiated is None:
        names = _positional_params(rule)[0]
        differentiated = _DIFFERENTIATED_PARAMS[rule] = frozenset(
            name for i, name in enumerate(names) if rule.vjp(i) is not None)
    for name, v in kwargs.items():
        if name in differentiated or type(v) not in _PLAIN_KEYWORD_TYPES:
            return False
    return True


def plain_ufunc(ufunc):
    """Whether ``array_ufunc`` would record a keyword-free call of ``ufunc`` as it is."""
    if ufunc.nout == 1 and ufunc not in UFUNC_REWRITES and _lookup(ufunc) is not None:
        PLAIN_UFUNCS.add(ufunc)
        return True
    return False


PLAIN_FUNCS = {}
"""numpy function -> its Rule, for the functions ``plain_rule`` found that ``array_function`` records as
they are; ``PLAIN_UFUNCS`` likewise for ufuncs (``plain_ufunc``)."""
PLAIN_UFUNCS = set()
_PLAIN_KEYWORD_TYPES = {int, float, bool, str, type(None)}
_DIFFERENTIATED_PARAMS = {}
"""Rule -> names of its primitive's positional parameters that have a VJP rule: given by keyword,
such an argument must become positional (``_bind``)."""


# --- the protocols ---------------------------------------------------------------------------------

def array_function(func, args, kwargs):
    if func in METADATA:
        return func(*[_unwrap(a) for a in args], **{k: _unwrap(v) for k, v in kwargs.items()})
    if _state.tapes and _holds_list(args, kwargs):
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
    return results(rule, apply(func, args, kwargs), args)


def array_ufunc(ufunc, method, inputs, kwargs):
    if method != "__call__" or kwargs.get("out") is not None:
        raise TypeError(
            f"np.{ufunc.__name__}.{method} (or out=) is not supported on adjoin tensors; "
            f"call the ufunc directly and use its result."
        )
    kwargs.pop("out", None)
    if _state.tapes and _holds_list(inputs, {}):
        inputs, _ = _stack_lists(ufunc, inputs, {})
    if ufunc in UFUNC_REWRITES and not kwargs:
        return UFUNC_REWRITES[ufunc](*inputs)
    rule = registry.lookup(ufunc)
    if rule is None:
        raise no_rule_error(ufunc)
    return results(rule, apply(ufunc, inputs, kwargs), inputs)


def results(rule, result, args):
    """Tuple-valued results become tuples of tensors; a differentiable one cannot be recorded."""
    value = result._value
    if not isinstance(value, (tuple, list)):
        return result
    if rule.differentiable and contains_tracked(list(args)):
        raise TypeError(f"{rule.name} returns several arrays, which the GradientTape cannot record yet; "
                        f"compute each result with a separate call, or differentiate with the transpiler")
    return type(value)(wrap(v) for v in value)
