"""Argument signatures: which generated variant a call runs, and gradients in their parameters' dtypes.

A call's *signature* is what the generated code may be specialised on: for each positional
argument its type, and for a numpy array its dtype (a Python float is 0-d and takes ``math``
functions; a float32 array must get a float32 gradient).  It is computed from the arguments
alone, without binding them to parameters, so a call that was seen before goes straight to
its variant, the way a JIT keys its cache.  Containers (lists, tuples, dicts) are not keyed:
their structure needs the full checks (``api._Transformer.call``).

``cast_like`` gives a gradient its parameter's dtype.  The generated code computes in
whatever dtype numpy's promotion gives (a float32 parameter meeting a float64 constant of
the user's gives float64 values); the gradient returned to the user is cast back, as JAX
does, so a float32 (float16, complex64) parameter always gets a gradient of its own dtype.
"""

import numpy as np

__all__ = ["key_of", "cast_like", "cast_grads", "specialisation", "subscripted", "split_floats", "fast_call"]

_CONTAINERS = (list, tuple, dict)
_NDARRAY = np.ndarray


def key_of(args):
    """The signature of positional ``args``, or None when one of them is a container."""
    out = []
    for a in args:
        cls = a.__class__
        if cls is _NDARRAY:
            out.append(a.dtype)
        elif cls in _CONTAINERS:
            return None
        else:
            dtype = getattr(a, "dtype", None)          # a numpy scalar, an array subclass, a tensor
            out.append(cls if dtype is None else (cls, dtype))
    return tuple(out)


def cast_like(g, x):
    """``g`` in the dtype of parameter value ``x`` (a float array or numpy scalar).

    A complex gradient of a real parameter keeps its real part (the imaginary part of a
    real-valued function's cotangent is not a derivative with respect to a real input).
    Anything without a floating dtype (Python floats, containers, tensors) is returned as is.
    """
    xd = getattr(x, "dtype", None)
    gd = getattr(g, "dtype", None)
    if xd is None or gd is None or gd == xd or not isinstance(xd, np.dtype) or not isinstance(gd, np.dtype):
        return g
    if xd.kind not in "fc" or gd.kind not in "fciub":
        return g
    if gd.kind == "c" and xd.kind != "c":
        g = np.real(g)
    return g.astype(xd) if hasattr(g, "astype") else xd.type(g)


def cast_grads(grads, likes, single):
    """``cast_like`` over a gradient (``single``) or a tuple of them, one per parameter value."""
    if single:
        return cast_like(grads, likes[0])
    return tuple(cast_like(g, x) for g, x in zip(grads, likes))


def specialisation(arguments, indexed):
    """What a variant is specialised on, from the bound ``arguments`` (name -> value): parameters
    bound to Python floats (0-d: no broadcasting bookkeeping, ``math`` functions), and, written
    ``"x[]"``, 1-d float64 array parameters the body subscripts (names in ``indexed``), whose
    elements ``x[i]`` are float64 scalars.  A sorted tuple: part of the variant's cache key."""
    out = [k for k, v in arguments.items() if isinstance(v, float)]
    out += [k + "[]" for k, v in arguments.items() if k in indexed and v.__class__ is np.ndarray
            and v.ndim == 1 and v.dtype == np.float64]
    return tuple(sorted(out))


def subscripted(fn):
    """Names ``fn``'s source subscripts (``x[i]``); empty when the source cannot be read."""
    import ast
    import inspect
    import textwrap
    try:
        node = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):
        return frozenset()
    return frozenset(n.value.id for n in ast.walk(node)
                     if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name))


def split_floats(spec):
    """A variant's specialisation (``api._Transformer.floats``) as (Python-float parameters,
    1-d float64 array parameters whose elements the body reads): ``("a", "x[]")`` ->
    ``(("a",), ("x",))``."""
    floats = tuple(n for n in spec if not n.endswith("[]"))
    return floats, tuple(n[:-2] for n in spec if n.endswith("[]"))


def fast_call(gen, sig, nargs, preserve_result):
    """``run(args, seed)`` for later calls with the same signature (``signature.key_of``): the
    generated function and the cast of each gradient to its parameter's dtype, nothing else.
    None when a ``wrt`` parameter is not among the positional arguments."""
    params = list(sig.parameters.values())
    if any(p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params[:nargs]):
        return None
    names = [p.name for p in params[:nargs]]
    if not all(w in names for w in gen.wrt):
        return None
    where = [names.index(w) for w in gen.wrt]
    function, seed_name = gen.function, gen.seed_name
    one = len(where) == 1
    wrap = not gen.single and one              # wrt=(0,): a tuple of one gradient
    first = where[0]

    def run(args, seed):
        out = function(*args) if seed is None else function(*args, **{seed_name: seed})
        grads = out[0] if preserve_result else out
        if one:
            grads = cast_like(grads, args[first])
            if wrap:
                grads = (grads,)
        else:
            grads = tuple([cast_like(g, args[i]) for g, i in zip(grads, where)])
        return (grads, out[1]) if preserve_result else grads
    return run
