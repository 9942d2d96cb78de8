"""What counts as a user function, and the hooks through which lower layers reach the surface.

The analysis and the modes must tell a user function (whose source adjoin reads) from a
primitive, and must transform a callee on its first call.  The objects involved are defined
higher up -- ``Differentiable`` and ``GradientFunction`` (api.py), a callee's generated
function (modes/callees.py), ``call_forward`` (modes/callees.py) read again as
``forward_again`` (modes/again.py) -- so those modules register them here when they are
imported (``transpiler/__init__`` imports api, which imports them all), and nothing here
imports upward.
"""

import types

__all__ = ["user_function", "plain_function", "register_wrapper", "register_alias",
           "register_transformer", "transformer", "register_tf_calls", "rewrite_tf_calls", "register_twins"]

_WRAPPERS = []      # (class, unwrap): an instance of class -> unwrap(instance), checked first
_ALIASES = []       # (object, function read in its place), compared by identity
_HOOKS = {}


def register_wrapper(cls, unwrap):
    """Instances of ``cls`` are user functions as ``unwrap(instance)`` says:
    ``(python function, bound self or None)`` or None."""
    _WRAPPERS.append((cls, unwrap))


def register_alias(obj, fn):
    """``obj`` is read as the Python function ``fn`` (machinery with a plain-Python twin)."""
    _ALIASES.append((obj, fn))


def register_transformer(get):
    """``get(fn)`` -> the per-function cache of generated code (api.py's ``_transformer``)."""
    _HOOKS["transformer"] = get


def transformer(fn):
    """The cache of generated code for ``fn``: ``transformer(fn).get(wrt, ...)``."""
    return _HOOKS["transformer"](fn)


def register_tf_calls(rewrite):
    """``rewrite(core, ctx)`` -> ``core`` with its runtime (``tf.*``) calls written as numpy code
    (bridge/__init__.py registers it: the front end runs it after normalizing)."""
    _HOOKS["tf_calls"] = rewrite


def rewrite_tf_calls(core, ctx):
    """``core`` with its ``tf.*`` calls written as numpy code, by the registered rewrite."""
    rewrite = _HOOKS.get("tf_calls")
    return core if rewrite is None else rewrite(core, ctx)


def user_function(fn):
    """``(python function, bound self or None)`` for a callable adjoin can transform, else None."""
    for cls, unwrap in _WRAPPERS:
        if isinstance(fn, cls):
            return unwrap(fn)
    return plain_function(fn)


def register_twins(twin_of):
    """``twin_of(fn)`` -> ``(python function, None)`` computing what ``fn`` (a library's method the
    transpiler cannot read, such as a scipy.stats frozen distribution's) computes, else None."""
    _HOOKS["twins"] = twin_of


def plain_function(fn):
    """``user_function`` for everything but the registered wrapper types."""
    twin_of = _HOOKS.get("twins")
    found = twin_of(fn) if twin_of is not None else None
    if found is not None:
        return found
    if isinstance(fn, types.MethodType):
        inner = user_function(fn.__func__)
        return (inner[0], fn.__self__) if inner is not None and inner[1] is None else None
    for obj, twin in _ALIASES:
        if fn is obj:                       # generated code differentiated again
            return twin, None
    if isinstance(fn, types.FunctionType):
        mod = getattr(fn, "__module__", None) or ""
        if mod.startswith(("numpy", "runtime.")) and not mod.startswith("runtime.rules.") or mod == "runtime":
            return None
        from runtime.rules import registry
        return (fn, None) if registry.lookup(fn) is None else None
    call = getattr(type(fn), "__call__", None)
    owner = getattr(type(fn), "__module__", None)
    if isinstance(owner, str) and owner.startswith("transpiler."):   # (a C type may have no str here)
        return None                          # adjoin's own objects (hvp, jacobian...): no source to use
    if isinstance(call, types.FunctionType) and not isinstance(fn, type):
        return user_function(types.MethodType(call, fn))    # an instance with __call__
    return None
