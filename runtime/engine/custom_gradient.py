"""``tf.custom_gradient`` and ``tf.recompute_grad``.

A custom-gradient call runs ``f`` as usual (its ops are recorded, so a gradient function
that uses them, like ``upstream * (1 - 1 / (1 + e))``, stays differentiable for a tape
further out), then records *one* extra op on every recording tape: the inputs (and the
variables ``f`` read) -> fresh copies of ``f``'s outputs, whose VJP is the user's
``grad_fn``.  Only the fresh copies are returned, so a tape reaches the inputs through
``grad_fn`` alone.  Forward-mode accumulators see ``f``'s own ops instead (they follow the
true derivative of ``f``).
"""

import functools
import inspect

import numpy as np

from . import nest
from ..rules.registry import Alias, Rule, add_alias_hook, define, primitive
from .tape import _flat_items as _flat, tf_convention
from .recording import _state
from .tensor import _TensorBase, _wrap, constant
from .variable import Variable

__all__ = ["custom_gradient", "recompute_grad"]


class _VariableWatcher:
    """Sits on the recorder stack while ``f`` runs, collecting the trainable variables it reads."""

    def __init__(self):
        self.variables = {}

    def _record(self, rule, args, vals, kwargs, out):
        for a in _flat(args):
            if isinstance(a, Variable) and a._trainable:
                self.variables.setdefault(id(a), a)


class _Cotangent:
    """The gradients of a multi-output custom op, one slot per output (None: no gradient yet)."""

    __slots__ = ("parts",)

    def __init__(self, parts):
        self.parts = parts

    def __add__(self, other):
        if other is None:
            return self
        return _Cotangent([b if a is None else a if b is None else a + b
                           for a, b in zip(self.parts, other.parts)])

    __radd__ = __add__

    def __getitem__(self, k):  # one element of a batch of cotangents (batched jacobians)
        return _Cotangent([None if p is None else p[k] for p in self.parts])


def _is_recording_tape(rec):
    return type(rec).__name__ == "GradientTape"


def _record_custom(inputs, variables, results, grad_of):
    """Record ``inputs + variables -> results`` on the recording tapes with VJP ``grad_of``.

    ``grad_of(upstreams)`` takes one upstream gradient per result (Tensors) and returns one
    gradient (or None) per input followed by one per variable.  Returns the fresh outputs.
    """
    flat = nest.flatten(results)
    outs = [_wrap(r._value) if isinstance(r, _TensorBase) else
            constant(r) if isinstance(r, (np.ndarray, np.generic, float)) else r for r in flat]
    recorders = list(_state.tapes)
    if not recorders:
        return nest.pack_sequence_as(results, outs)
    args = tuple(inputs) + tuple(variables)
    n_in = len(args)
    shapes = [(np.shape(o._value), o._value.dtype) if isinstance(o, _TensorBase) else None for o in outs]
    cache = {}

    def grads_for(g):
        key = id(g)
        hit = cache.get(key)
        if hit is not None and hit[0] is g:
            return hit[1]
        higher = bool(_state.tapes)  # the sweep is being recorded: keep everything as tensors
        parts = g.parts if isinstance(g, _Cotangent) else [g]
        ups = []
        for p, s in zip(parts, shapes):
            if p is None:
                p = np.zeros(s[0], dtype=s[1])
            ups.append(p if isinstance(p, _TensorBase) else _wrap(np.asarray(p, dtype=s[1])[()] if np.ndim(p) == 0 else np.asarray(p, dtype=s[1])))
        # grad_fn speaks TF's convention for complex values, the sweep the rules' (see tf_convention)
        res = [tf_convention(r) for r in grad_of([tf_convention(u) for u in ups])]
        res = [None if r is None else (r if higher or not isinstance(r, _TensorBase) else r._value) for r in res]
        if not higher:
            res = [None if r is None else (np.asarray(_materialize(r)) if not isinstance(r, np.ndarray) else r) for r in res]
        cache.clear()
        cache[key] = (g, res)
        return res

    def make_vjp(i):
        def vjp(g, ans, *a, **k):
            return grads_for(g)[i]
        vjp.batch_safe = False
        return vjp

    float_out = [o for o in outs if isinstance(o, _TensorBase) and o._value.dtype.kind in "fc"]
    if len(outs) == 1:
        rule = Rule(None, "custom_gradient", tuple(make_vjp(i) for i in range(n_in)), (), True, None)
        tape_targets = [(rule, outs[0])]
        hub = None
    else:
        rule = Rule(None, "custom_gradient", tuple(make_vjp(i) for i in range(n_in)), (), True, None)
        hub = _wrap(np.float32(0))
        tape_targets = [(rule, hub)]
        for k, o in enumerate(outs):
            if isinstance(o, _TensorBase):
                tape_targets.append((_pick_rule(k, len(outs)), o))
    vals = [a._value if isinstance(a, _TensorBase) else a for a in args]
    for rec in recorders:
        if _is_recording_tape(rec):
            for j, (r, o) in enumerate(tape_targets):
                if hub is not None and j > 0:
                    rec._record(r, (hub,), [hub._value], None, o)
                elif o._value.dtype.kind in "fc" or hub is not None:
                    rec._record(r, args, vals, None, o)
        elif hasattr(rec, "_tangents"):
            # forward mode: the fresh outputs carry the tangents of f's own outputs
            for src, o in zip(flat, outs):
                if isinstance(src, _TensorBase):
                    entry = rec._tangents.get(id(src))
                    if entry is not None:
                        rec._tangents[id(o)] = (o, entry[1])
    del float_out
    return nest.pack_sequence_as(results, outs)


def _slot_vjp(k, n):
    """VJP of "output k of an n-output op": the cotangent lands in slot k of a _Cotangent."""
    def vjp(g, ans, hub, **kwargs):
        parts = [None] * n
        parts[k] = g
        return _Cotangent(parts)
    vjp.batch_safe = True
    return vjp


def _pick_rule(k, n):
    return Rule(None, f"custom_gradient_output_{k}", (_slot_vjp(k, n),), (), True, None)


def _any_tensor(g):
    if isinstance(g, _Cotangent):
        return any(isinstance(p, _TensorBase) for p in g.parts)
    return isinstance(g, _TensorBase)


def _materialize(r):
    return r._value if isinstance(r, _TensorBase) else r


def _accepts_variables(fn):
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return True
    return "variables" in params or any(p.kind is p.VAR_KEYWORD for p in params.values())


def custom_gradient(f=None):
    """Decorator: ``f`` returns ``(y, grad_fn)``; ``grad_fn(*upstream)`` gives the input gradients
    (and, with ``variables=``, ``(input_grads, variable_grads)`` for the variables f read)."""
    if f is None:
        return custom_gradient

    @functools.wraps(f)
    def wrapped(*args, **kwargs):
        watcher = _VariableWatcher()
        _state.tapes.append(watcher)
        try:
            result, grad_fn = f(*args, **kwargs)
        finally:
            _state.tapes.remove(watcher)
        inputs = [a if isinstance(a, _TensorBase) else constant(a) for a in args]
        variables = [v for v in watcher.variables.values() if not any(v is a for a in inputs)]
        variables.sort(key=lambda v: v._uid)
        if variables and not _accepts_variables(grad_fn):
            raise TypeError(
                "@tf.custom_gradient grad_fn must accept keyword argument 'variables', since "
                "function uses variables: " + ", ".join(repr(v) for v in variables))
        n_in = len(inputs)

        def grad_of(upstreams):
            if variables:
                out = grad_fn(*upstreams, variables=variables)
                if not (isinstance(out, (list, tuple)) and len(out) == 2):
                    raise TypeError("grad_fn with variables must return (input_grads, variable_grads)")
                in_grads, var_grads = out
                var_grads = list(var_grads)
                if len(var_grads) != len(variables):
                    raise ValueError(
                        f"custom_gradient: grad_fn returned {len(var_grads)} variable gradients for "
                        f"{len(variables)} variables")
            else:
                in_grads, var_grads = grad_fn(*upstreams), []
            in_grads = list(in_grads) if isinstance(in_grads, (list, tuple)) else [in_grads]
            if len(in_grads) != n_in:
                raise ValueError(
                    f"custom_gradient function expected to return {n_in} gradients, but returned "
                    f"{len(in_grads)} instead.")
            return in_grads + var_grads

        return _record_custom(inputs, variables, result, grad_of)

    wrapped._custom_gradient_of = f
    return wrapped


# --- a custom-gradient function as a primitive (for generated numpy code) -------------------

def _alias_of_custom(fn):
    """Registry hook: ``fn`` made by ``custom_gradient`` is, in numpy code, a primitive whose
    value is ``f``'s result and whose VJP is the user's ``grad_fn`` (built once per ``fn``)."""
    f = getattr(fn, "_custom_gradient_of", None)
    if f is None:
        return None
    spec = fn.__dict__.get("_adjoin_alias")
    if spec is None:
        params = _positional_params(f)
        if params is None:
            return None
        spec = fn._adjoin_alias = Alias(fn, _custom_primitive(f, len(params)), params, {})
    return spec


def _positional_params(f):
    try:
        params = inspect.signature(f).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD, p.KEYWORD_ONLY) for p in params):
        return None
    return [p.name for p in params]


def _custom_primitive(f, n):
    """A primitive computing ``f``'s value on numpy arrays, with one VJP per argument that
    calls ``grad_fn``.  On numpy arguments everything runs on fresh constants and comes back
    as numpy; on tensors (an outer tape recording the sweep) ``f`` and ``grad_fn`` record
    themselves, so higher derivatives differentiate the user's gradient function, as in TF."""
    memo = [None]

    def value(*args):
        y, _ = f(*[_as_input(a) for a in args])
        if isinstance(y, (list, tuple)):
            raise TypeError(f"{f.__qualname__}: a tf.custom_gradient function with several outputs "
                            "cannot be called inside a @differentiate function")
        return y._value if isinstance(y, _TensorBase) else np.asarray(y)

    value.__name__ = value.__qualname__ = f"{f.__name__}_value"
    value.__module__ = None  # not importable: generated source shows it as a runtime object

    def grads(g, args):
        hit = memo[0]
        if hit is not None and hit[0] is g and all(a is b for a, b in zip(hit[1], args)):
            return hit[2]
        tensors = isinstance(g, _TensorBase) or any(isinstance(a, _TensorBase) for a in args)
        _, grad_fn = f(*[_as_input(a) for a in args])
        out = grad_fn(tf_convention(_as_input(g)))   # TF's convention for complex values
        out = [tf_convention(o) for o in (out if isinstance(out, (list, tuple)) else [out])]
        if len(out) != n:
            raise ValueError(f"custom_gradient function expected to return {n} gradients, but "
                             f"returned {len(out)} instead.")
        out = [np.zeros_like(a) if o is None else o if tensors else _materialize(o)
               for o, a in zip(out, args)]
        memo[0] = (g, args, out)
        return out

    def make_vjp(i):
        def custom_vjp(g, ans, *args):
            return grads(g, args)[i]
        custom_vjp.__name__ = custom_vjp.__qualname__ = f"{f.__name__}_vjp_{i}"
        custom_vjp.__module__ = None
        custom_vjp._custom_gradient_rule_of = f  # the transpiler cannot differentiate it again
        return custom_vjp

    def make_jvp(i):
        def custom_jvp(t, ans, *args):
            return _true_jvp(f, i, t, args)
        custom_jvp.__name__ = custom_jvp.__qualname__ = f"{f.__name__}_jvp_{i}"
        custom_jvp.__module__ = None
        custom_jvp._custom_gradient_rule_of = f  # the transpiler cannot differentiate it again
        return custom_jvp

    prim = primitive(value)
    define(prim, vjp=tuple(make_vjp(i) for i in range(n)), jvp=tuple(make_jvp(i) for i in range(n)),
           name=f"{f.__qualname__} (custom_gradient)")
    return prim


def _true_jvp(f, i, t, args):
    """Forward mode follows ``f``'s own ops, as the runtime's ForwardAccumulator does."""
    from .forward import ForwardAccumulator
    from .tape import UnconnectedGradients
    tensors = isinstance(t, _TensorBase) or any(isinstance(a, _TensorBase) for a in args)
    ins = [_as_input(a) for a in args]
    with ForwardAccumulator(ins[i], _as_input(t)) as acc:
        y, _ = f(*ins)
    out = acc.jvp(y, unconnected_gradients=UnconnectedGradients.ZERO)
    return out if tensors else _materialize(out)


def _as_input(a):
    """A tensor for ``f`` / ``grad_fn``: tensors pass, numpy data becomes a fresh constant."""
    if isinstance(a, _TensorBase):
        return a
    return _wrap(np.asarray(a)[()] if np.ndim(a) == 0 else np.asarray(a))


add_alias_hook(_alias_of_custom)


def recompute_grad(f):
    """``f`` that keeps no intermediate results: its backward pass runs ``f`` again under a tape."""

    @functools.wraps(f)
    def wrapped(*args, **kwargs):
        from .tape import GradientTape
        saved = list(_state.tapes)
        watcher = _VariableWatcher()
        _state.tapes[:] = [watcher] + [r for r in saved if not _is_recording_tape(r)]
        try:
            result = f(*args, **kwargs)
        finally:
            _state.tapes[:] = saved
        inputs = [a if isinstance(a, _TensorBase) else constant(a) for a in args]
        variables = sorted(watcher.variables.values(), key=lambda v: v._uid)
        variables = [v for v in variables if not any(v is a for a in inputs)]

        def grad_of(upstreams):
            with GradientTape() as tape:
                tape.watch(inputs)
                tape.watch(variables)
                again = f(*inputs, **kwargs)
            grads = tape.gradient(nest.flatten(again), list(inputs) + list(variables),
                                  output_gradients=upstreams)
            return list(grads)

        return _record_custom(inputs, variables, result, grad_of)

    return wrapped
