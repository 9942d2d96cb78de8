"""A callee's generated functions, as the generated code calls them.

A call to a user function ``g`` in generated code goes through ``fwd_g``/``bwd_g``/``jvp_g``:
small proxies for the callee's generated pair (split.py) or tangent, looked up in the
per-function cache when first called, so each (callee, wrt) is transformed once; that they
resolve at call time is what lets a function call itself (its saved tuples nest, and that
nesting is the call stack of the recursion).

Callees only known at run time -- a method of a parameter (``self.layer(x)``), a function
passed as an argument (``f(x)`` for a parameter ``f``) -- go through ``call_forward`` /
``call_backward`` / ``call_jvp``, which find the function when called and use the same cache
(a primitive with a rule, such as ``np.sin`` passed as ``f``, uses its rule).  Read again
(``hvp``, ``grad(grad(f))``), these are plain Python of again.py.

What the modes emit for a call is calls.py.
"""

import inspect
import types

import numpy as np

from ..core.callables import transformer, user_function
from ..core.errors import TranspileError
from ..frontend.source.star_args import Specialised

__all__ = ["label", "proxy", "prepare", "call_forward", "call_backward", "call_jvp", "callee_sources"]


_IN_PROGRESS = set()     # (function, wrt, mode) being generated now: reference those lazily


def label(fn):
    """A readable identifier for a function: ``MLP.__call__`` -> ``MLP_call``."""
    if isinstance(fn, Specialised):       # one per call shape: g(x, y, scale=s) -> g_2_scale
        return "_".join([label(fn.__wrapped__), str(fn.nvar)] + list(fn.keys))
    qualname = fn.__qualname__
    if qualname.startswith("__adjoin_bind__."):       # generated code (fwd_g), differentiated again
        qualname = fn.__name__
    parts = [p.strip("_") for p in qualname.replace("<locals>.", "").replace("<lambda>", "lambda").split(".")]
    return "_".join(p for p in parts if p) or "f"


# --- the generated functions of a callee, by proxy ------------------------------------------

class _Proxy:
    """A callee's generated function, found when first called (so recursion can refer to it)."""

    _adjoin_callee = True

    def __init__(self, fn, wrt, role, memory_budget=None):
        self.fn, self.wrt, self.role, self.memory_budget = fn, wrt, role, memory_budget
        self.__name__ = {"forward": "fwd_", "backward": "bwd_", "jvp": "jvp_"}[role] + label(fn)
        self.__qualname__ = self.__name__
        self.__module__ = __name__
        self._target = None

    def generated(self):
        """The callee's Split (forward/backward) or tangent Generated (jvp)."""
        mode = "forward" if self.role == "jvp" else "split"
        return transformer(self.fn).get(self.wrt, False, mode=mode, memory_budget=self.memory_budget)

    def function_node(self):
        gen = self.generated()
        if self.role == "jvp":
            return gen, gen.node, gen.code
        i = 0 if self.role == "forward" else 1
        return gen, gen.nodes[i], gen.codes[i]

    def function(self):
        """The generated Python function itself (its source is registered), for transforming again."""
        gen = self.generated()
        return gen.forward if self.role == "forward" else gen.backward

    def __call__(self, *args, **kwargs):
        target = self._target
        if target is None:
            gen = self.generated()
            if self.role == "jvp":
                names = gen.seed_name
                fn = gen.function
                target = lambda tangents, *a, **k: fn(*a, **k, **dict(zip(names, tangents)))  # noqa: E731
            else:
                target = gen.forward if self.role == "forward" else gen.backward
            self._target = target
        return target(*args, **kwargs)

    def __repr__(self):
        return f"<generated {self.__name__} wrt={self.wrt}>"


_PROXIES = {}


def proxy(fn, wrt, role, memory_budget=None):
    """The callee's generated function; with a budget, its loops are checkpointed too."""
    key = (fn, wrt, role, memory_budget)
    p = _PROXIES.get(key)
    if p is None:
        p = _PROXIES[key] = _Proxy(fn, wrt, role, memory_budget)
    return p


def prepare(ctx, node, fn, wrt, mode):
    """Generate the callee now (errors point at the call site), unless it is being generated."""
    key = (fn, wrt, mode)
    if key in _IN_PROGRESS:
        return
    _IN_PROGRESS.add(key)
    try:
        proxy(fn, wrt, "jvp" if mode == "forward" else "forward", ctx.memory_budget).generated()
    except TranspileError as e:
        where = f"{e.filename}:{e.lineno}"
        name = fn.__qualname__
        hint = (e.hint or "").rstrip(".")
        hint = (hint + "; or " if hint else "") + (f"give {name} its own derivative rule with "
                                                   f"runtime.rules.define({name}, vjp=(...,))")
        raise ctx.error(f"cannot differentiate the call to {name}(): {e.reason} (at {where})",
                        node, hint) from None
    finally:
        _IN_PROGRESS.discard(key)


# --- callees known only at run time ---------------------------------------------------------

_DYNAMIC = {}


def _resolve(fn, spec, nargs, kwnames):
    """(python function or rule, wrt names, bound self or None) for a run-time callee.

    The binding of this call shape to the function's parameters is cached per function."""
    found = user_function(fn)
    if found is None:
        from runtime.rules import registry
        rule = registry.lookup(fn)
        if rule is None or any(not isinstance(k, int) for k in spec):
            name = getattr(fn, "__qualname__", repr(fn))
            raise TypeError(f"adjoin cannot differentiate through {name}: it is neither a Python "
                            "function with source nor a primitive with a derivative rule; define one "
                            "with runtime.rules.define")
        return rule, spec, None
    py, bound = found
    key = (py, spec, nargs, kwnames, bound is not None)
    wrt = _DYNAMIC.get(key)
    if wrt is None:
        sig = inspect.signature(py)
        offset = 0 if bound is None else 1
        marks = [("pos", i) for i in range(nargs + offset)]
        bound_args = sig.bind(*marks, **{k: ("kw", k) for k in kwnames})
        where = {v: p for p, v in bound_args.arguments.items()
                 if sig.parameters[p].kind not in (inspect.Parameter.VAR_POSITIONAL,
                                                   inspect.Parameter.VAR_KEYWORD)}
        try:
            wrt = _DYNAMIC[key] = tuple(where[("pos", k + offset) if isinstance(k, int) else ("kw", k)]
                                        for k in spec)
        except KeyError:
            raise TypeError(f"{py.__qualname__}: a differentiable value passed through *args or "
                            "**kwargs of a function known only at run time; give it a named "
                            "parameter") from None
    return py, wrt, bound


def call_forward(fn, spec, *args, **kwargs):
    """Split forward of a callee found at run time: ``(value, tape)``."""
    target, wrt, bound = _resolve(fn, spec, len(args), tuple(kwargs))
    if not isinstance(target, types.FunctionType):      # a primitive: its rule is the pullback
        value = fn(*args, **kwargs)
        return value, (target, spec, args, kwargs, value)
    if bound is not None:
        args = (bound,) + args
    value, saved = proxy(target, wrt, "forward")(*args, **kwargs)
    return value, (proxy(target, wrt, "backward"), saved)


def call_backward(tape, g):
    """Split backward for ``call_forward``: the gradients of the active arguments, in ``spec`` order."""
    if len(tape) == 2:
        backward, saved = tape
        return backward(saved, g)
    rule, spec, args, kwargs, value = tape
    grads = []
    for i in spec:
        vjp = rule.vjp(i)
        grads.append(np.zeros_like(args[i]) if vjp is None else vjp(g, value, *args, **kwargs))
    return grads[0] if len(grads) == 1 else tuple(grads)


def call_jvp(fn, spec, tangents, *args, **kwargs):
    """Tangent of a callee found at run time: ``(value, tangent)``."""
    target, wrt, bound = _resolve(fn, spec, len(args), tuple(kwargs))
    if not isinstance(target, types.FunctionType):
        value = fn(*args, **kwargs)
        total = 0.0
        for i, t in zip(spec, tangents):
            jvp = target.jvp(i)
            if jvp is not None:
                total = total + jvp(t, value, *args, **kwargs)
        return value, total + np.zeros_like(value)
    if bound is not None:
        args = (bound,) + args
    return proxy(target, wrt, "jvp")(tangents, *args, **kwargs)


# --- showing the callees' code --------------------------------------------------------------

def callee_sources(ctx, seen=None):
    """The generated code of every callee ``ctx``'s function refers to (recursively), as text."""
    seen = set() if seen is None else seen
    parts = []
    for obj in list(ctx.injected.values()):
        if not isinstance(obj, _Proxy) or obj.role == "backward":
            continue
        key = (obj.fn, obj.wrt, obj.role)
        if key in seen:
            continue
        seen.add(key)
        try:
            gen = obj.generated()
        except Exception:          # pragma: no cover - reported when the code runs
            continue
        if gen.ctx is ctx:
            continue
        what = "tangent" if obj.role == "jvp" else "forward/backward pair"
        name = obj.fn.__qualname__
        if name.startswith("__adjoin_bind__."):
            name = f"{obj.fn.__name__} (generated)"
        parts.append(f"# --- {what} of the callee {name} (wrt {', '.join(obj.wrt)}) ---\n"
                     + gen.own_source.rstrip("\n"))
        parts.extend(callee_sources(gen.ctx, seen))
    return parts
