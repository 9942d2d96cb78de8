"""What the entry points accept as the function to differentiate.

adjoin reads a Python function's source (a def, a lambda, a method).  Other callables stand for
one:

* a callable object is its bound ``__call__``;
* a ``functools.partial`` is a small generated function that calls the partial's function with
  its fixed arguments (its parameters are the partial's: ``partial(h, c=2.0)`` takes ``x`` and
  ``c=2.0``), so that function is differentiated as any callee is;
* a primitive with a derivative rule (``np.sin``, ``math.exp``, ``np.arctan2``) is a small
  generated function calling it, so its rule is what gets differentiated.

Anything else -- ``None``, a number, a builtin without a rule -- is a TypeError that says what
can be differentiated.  The generated stand-ins have source registered with ``linecache`` under
a ``<adjoin ...>`` file name, like generated gradients.
"""

import functools
import inspect
import keyword
import linecache
import types
import weakref

from .core.once import once

__all__ = ["target"]

WHAT = ("a Python function (def or lambda), a method, a callable object, a functools.partial, or a "
        "numpy/math primitive with a derivative rule")


def target(f, entry="grad"):
    """``f`` as the entry points read it (a Python function or method, or one of adjoin's
    wrappers, which they know); ``entry`` names the entry point in errors."""
    if inspect.isfunction(f) or inspect.ismethod(f) or hasattr(type(f), "_differentiates") \
            or type(f).__name__ == "_BoundDifferentiable":
        return f
    if isinstance(f, (staticmethod, classmethod)):
        return target(f.__func__, entry)
    if getattr(f, "__wrapped__", None) is not None and inspect.isfunction(inspect.unwrap(f)):
        return f               # wraps a function adjoin reads (a *args function fixed to a call shape)
    if isinstance(f, functools.partial):
        return once(_PARTIALS, f, lambda: _partial_function(f))
    if _has_rule(f):
        return once(_PRIMITIVES, f, lambda: _primitive_function(f))
    call = getattr(type(f), "__call__", None)
    if callable(f) and inspect.isfunction(call):       # an object with a Python __call__
        return types.MethodType(call, f)
    if callable(f):
        name = getattr(f, "__qualname__", None) or type(f).__name__
        raise TypeError(f"{entry}({name}): {name} is neither a Python function adjoin can read nor a "
                        f"primitive with a derivative rule; give it one with runtime.rules.define({name}, "
                        f"vjp=(...,)), or differentiate a Python function that calls it")
    raise TypeError(f"{entry}() takes the function to differentiate -- {WHAT} -- not "
                    f"{type(f).__name__} ({_short(f)})")


def _short(value):
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _has_rule(f):
    from runtime.rules import registry
    return registry.lookup(f) is not None


_PARTIALS = weakref.WeakKeyDictionary()    # partial -> its stand-in (which holds its parts, not it)
_PRIMITIVES = {}                           # primitive -> its stand-in (primitives live for good)
_counter = [0]


def _define(name, source, namespace, qualname):
    """Run ``source`` (one def) under a fresh ``<adjoin ...>`` file name with its lines
    registered, so adjoin reads it like any function; the function it defines."""
    _counter[0] += 1
    filename = f"<adjoin stand-in {_counter[0]}: {qualname}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(compile(source, filename, "exec"), namespace)
    fn = namespace[name]
    fn.__qualname__ = qualname
    return fn


def _identifier(name, fallback):
    name = "".join(c if c.isalnum() or c == "_" else "_" for c in str(name))
    if not name or name[0].isdigit() or keyword.iskeyword(name):
        return fallback
    return name


def _primitive_function(prim, fixed=(), keywords=None):
    """``def sin(x): return __primitive(x)``: the primitive's required positional parameters
    (a ufunc's inputs; else those its signature lists without a default); ``fixed`` and
    ``keywords``: a partial's, passed first and as keywords."""
    name = _identifier(getattr(prim, "__name__", "primitive"), "primitive")
    nin = getattr(prim, "nin", None)
    if isinstance(nin, int):
        params = ["x"] if nin == 1 else [f"x{i + 1}" for i in range(nin)]
    else:
        try:
            sig = inspect.signature(prim)
            params = [p.name for p in sig.parameters.values()
                      if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty]
        except (TypeError, ValueError):
            params = ["x"]
        params = [_identifier(p, f"x{i + 1}") for i, p in enumerate(params)] or ["x"]
        if len(set(params)) != len(params) or "__primitive" in params:
            params = [f"x{i + 1}" for i in range(len(params))]
    namespace = {"__primitive": prim}
    params = params[len(fixed):] or (["x"] if not fixed else [])
    passed = []
    for i, value in enumerate(fixed):
        namespace[f"__fixed_{i}"] = value
        passed.append(f"__fixed_{i}")
    passed += params
    for k, value in (keywords or {}).items():
        namespace[f"__keyword_{k}"] = value
        passed.append(f"{k}=__keyword_{k}")
    source = f"def {name}({', '.join(params)}):\n    return __primitive({', '.join(passed)})\n"
    module = getattr(prim, "__module__", None) or type(prim).__module__
    qualname = f"{module}.{getattr(prim, '__qualname__', name)}" if module else name
    if fixed or keywords:
        qualname = f"functools.partial({qualname})"
    return _define(name, source, namespace, qualname)


def _partial_function(p):
    """``def h(x, *, c=__fixed['c']): return __func(__fixed_0, x, c=c)``: the partial's parameters
    (``inspect.signature`` of the partial), its fixed arguments passed as it passes them.  Of a
    partial of a primitive, the primitive's remaining required parameters."""
    if not (inspect.isfunction(p.func) or inspect.ismethod(p.func)):
        return _primitive_function(p.func, p.args, p.keywords)
    try:
        sig = inspect.signature(p)
    except (TypeError, ValueError) as e:
        raise TypeError(f"grad({p!r}): cannot read the parameters of this partial ({e})") from None
    namespace = {"__func": p.func}
    fixed = []
    for i, value in enumerate(p.args):
        namespace[f"__fixed_{i}"] = value
        fixed.append(f"__fixed_{i}")
    params, passed, star = [], list(fixed), False
    for q in sig.parameters.values():
        text = q.name
        if q.default is not q.empty:
            namespace[f"__default_{q.name}"] = q.default
            text += f"=__default_{q.name}"
        if q.kind is q.VAR_POSITIONAL:
            text, star = "*" + q.name, True
            passed.append("*" + q.name)
        elif q.kind is q.VAR_KEYWORD:
            text = "**" + q.name
            passed.append("**" + q.name)
        elif q.kind is q.KEYWORD_ONLY:
            if not star:
                params.append("*")
                star = True
            passed.append(f"{q.name}={q.name}")
        elif q.kind is q.POSITIONAL_ONLY:
            passed.append(q.name)
        else:
            passed.append(q.name)
        params.append(text)
    if any(q.kind is q.POSITIONAL_ONLY for q in sig.parameters.values()):
        last = max(i for i, q in enumerate(sig.parameters.values()) if q.kind is q.POSITIONAL_ONLY)
        params.insert(last + 1, "/")
    func_name = getattr(p.func, "__name__", "partial")
    name = _identifier(func_name, "partial")
    source = f"def {name}({', '.join(params)}):\n    return __func({', '.join(passed)})\n"
    return _define(name, source, namespace, f"functools.partial({getattr(p.func, '__qualname__', name)})")
