"""Differentiating with respect to the items of a ``*args`` parameter.

``def f(a, *xs)`` has no fixed number of parameters, so its gradient is generated per call
shape: the function read with ``*xs`` fixed to the call's items (``frontend/source/star_args.py``:
``def f(a, xs_0, xs_1)``).  ``wrt`` counts the call's positional arguments, as for any
function -- ``grad(f, wrt=2)(a, u, v)`` is the derivative with respect to ``v`` -- and the
name of the ``*args`` parameter stands for all its items: ``grad(f, wrt="xs")(a, u, v)`` is
the tuple ``(d/du, d/dv)``.  Functions whose ``wrt`` names only ordinary parameters are not
touched.
"""

import inspect

from .frontend.source.star_args import specialised
from .variants import transformer

__all__ = ["targets_items", "resolve", "same"]


def _parts(fn, signature=None):
    """(positional parameter names, the ``*args`` name or None, the ``**kwargs`` name or None)."""
    try:
        params = (signature or inspect.signature(fn)).parameters.values()
    except (TypeError, ValueError):
        return [], None, None
    positional = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    var = next((p.name for p in params if p.kind is p.VAR_POSITIONAL), None)
    kw = next((p.name for p in params if p.kind is p.VAR_KEYWORD), None)
    return positional, var, kw


def _each(wrt):
    return list(wrt) if isinstance(wrt, (tuple, list)) else [wrt]


def targets_items(fn, wrt):
    """Does ``wrt`` name items of ``fn``'s ``*args`` (an index past its named positional
    parameters, a negative index, or the ``*args`` name)?"""
    positional, var, _ = _parts(fn)
    return var is not None and _names_items(positional, var, wrt)


def _names_items(positional, var, wrt):
    return any(w == var or isinstance(w, int) and not isinstance(w, bool) and not 0 <= w < len(positional)
               for w in _each(wrt))


def same(grads):
    return grads


def resolve(t, wrt, args, kwargs):
    """``(transformer, wrt, kwargs, regroup)`` for a call with these arguments: ``t`` and ``wrt``
    unchanged (``regroup`` the identity) unless ``wrt`` names items of ``*args``; then the
    transformer of the function specialised to this call's shape, ``wrt`` as its parameter
    names, and ``regroup(grads)`` giving the gradients in the shape ``wrt`` asked for."""
    parts = t.__dict__.get("_star_parts")        # (read once per function: this runs every call)
    if parts is None:
        parts = t.__dict__["_star_parts"] = _parts(t.fn, t.signature)
    positional, var, kw = parts
    if var is None or not _names_items(positional, var, wrt):
        return t, wrt, kwargs, same
    fn = t.fn
    nvar = max(len(args) - len(positional), 0)
    items = [f"{var}_{i}" for i in range(nvar)]
    every = positional + items
    names, shape = [], []
    for w in _each(wrt):
        if w == var:
            if not items:
                raise ValueError(f"wrt={w!r}: the call passes no items in `*{var}` to differentiate with "
                                 f"respect to")
            shape.append(len(items))
            names += items
            continue
        if isinstance(w, int) and not isinstance(w, bool):
            if not -len(every) <= w < len(every):
                raise ValueError(f"wrt={w}: the call passes {len(every)} positional argument(s) to "
                                 f"{fn.__name__}()")
            w = every[w]
        shape.append(None)
        names.append(w)
    keys = tuple(k for k in kwargs if kw is not None and k not in inspect.signature(fn).parameters)
    if keys:
        kwargs = {(f"{kw}_{k}" if k in keys else k): v for k, v in kwargs.items()}
    single = not isinstance(wrt, (tuple, list)) and shape == [None]
    new_wrt = names[0] if single else tuple(names)

    def regroup(grads):
        if single:
            return grads
        flat, out = list(grads), []
        for n in shape:
            out.append(flat.pop(0) if n is None else tuple(flat.pop(0) for _ in range(n)))
        return out[0] if not isinstance(wrt, (tuple, list)) else tuple(out)

    fixed = specialised(fn, nvar, keys)
    return transformer(fixed), new_wrt, kwargs, regroup

