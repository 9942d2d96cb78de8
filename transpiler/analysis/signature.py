"""Argument signatures: which generated variant a call runs, and gradients in their parameters' dtypes.

A call's *signature* is what the generated code may be specialised on: for each positional
argument its type, and for a numpy array its dtype, ndim and which axes have length 1 (a
Python float is 0-d and takes ``math`` functions; an array's ndim and its axes of length 1
let ``backend/shapes.py`` prove where shapes match, since broadcasting only ever stretches an
axis of length 1; a float32 array must get a float32 gradient).  A batch of 128 and one of 64
share a variant; a batch of 1 gets its own.  It is computed from the arguments alone, without
binding them to parameters, so a call that was seen before goes straight to its variant, the
way a JIT keys its cache.  Lists, tuples and dicts are keyed by their structure: the class,
the dict keys and the signature of every item, so the leaves' checks and the variant they
choose are fixed by the key as well.

The variant itself is keyed by ``specialisation``: a sorted tuple of entries, one per parameter
it knows something about -- ``"a"`` (a Python float), ``"x[]"`` (a 1-d float64 array the body
subscripts), ``"W:2f"`` (an array or numpy scalar of ndim 2 and dtype kind ``f``, no axis of
length 1), ``"b:2f~1n"`` (its first axis has length 1), ``"p=(2f,1f)"`` (a container: its
structure, see ``structure``). float32 and float64 arrays of one ndim share a variant: the code
is the same, only the cast of the gradient (done per call) differs.

``cast_like`` gives a gradient its parameter's dtype. The generated code computes in whatever
dtype numpy's promotion gives (a float32 parameter meeting a float64 constant of the user's
gives float64 values); the gradient returned to the user is cast back, as JAX does, so a float32
(float16, complex64) parameter always gets a gradient of its own dtype.
"""

import numpy as np

from runtime.rules.containers import restructure

__all__ = ["key_of", "cast_like", "cast_tree", "cast_grads", "specialisation", "structure", "subscripted", "split_floats",
           "split_arrays", "fast_call"]

_CONTAINERS = (list, tuple, dict)
_NDARRAY = np.ndarray


def key_of(args):
    """The signature of positional ``args``: a tuple of one entry per argument, a container's
    entry holding its items' signatures (``_items``) and a dict's keys."""
    out = []
    for a in args:
        cls = a.__class__
        if cls is float or cls is int:
            out.append(cls)
        elif cls is _NDARRAY:
            shape = a.shape
            out.append((a.dtype, a.ndim) if 1 not in shape else (a.dtype, a.ndim, _ones(shape)))
        elif cls is list or cls is tuple:
            out.append((cls, _items(a)))
        elif cls is dict:
            out.append((cls, tuple(a), _items(a.values())))
        else:
            dtype = getattr(a, "dtype", None)          # a numpy scalar, an array subclass, a tensor
            out.append(cls if dtype is None else (cls, dtype))
    return tuple(out)


def _ones(shape):
    """Which axes of ``shape`` have length 1, as ``"n1n"``: broadcasting stretches those
    axes only, so a variant knowing them knows where every broadcast happens
    (``backend/shapes.py``); one string per pattern, not per shape."""
    return "".join("1" if n == 1 else "n" for n in shape)


def _items(items):
    """The signatures of a container's ``items`` (a list, tuple or dict view): ``(key, ...)``
    when they are all alike, so the length is not part of the key (as in ``structure``: the
    code does not depend on it, and a new length must not grow the table), found without
    building a list as long as the container (a budgeted gradient counts what a call holds)."""
    first = None
    for n, x in enumerate(items):
        k = key_of((x,))[0]
        if n == 0:
            first = k
        elif k != first:
            return key_of(items)                   # not all alike: one entry per item
    return () if first is None else (first, ...)


def cast_like(g, x):
    """``g`` in the dtype of parameter value ``x`` (a float array or numpy scalar).

    A complex gradient of a real parameter keeps its real part (the imaginary part of a
    real-valued function's cotangent is not a derivative with respect to a real input).
    Anything without a floating dtype (Python floats, containers, tensors) is returned as is.
    """
    if x.__class__ is float:          # the common scalar case, without a failing attribute lookup
        if g.__class__ is np.ndarray and g.ndim == 0 and g.dtype.kind == "f":
            return g[()]              # a 0-d array (a zero made with np.zeros_like): its number
        return g
    xd = getattr(x, "dtype", None)
    gd = getattr(g, "dtype", None)
    if xd is None or gd is None or gd == xd or not isinstance(xd, np.dtype) or not isinstance(gd, np.dtype):
        return g
    if xd.kind not in "fc" or gd.kind not in "fciub":
        return g
    if gd.kind == "c" and xd.kind != "c":
        g = np.real(g)
    return g.astype(xd) if hasattr(g, "astype") else xd.type(g)


def cast_tree(g, like):
    """``cast_like`` leaf by leaf, for a gradient already in the structure of a list, tuple or
    dict argument ``like`` (``restructure``): a float32 array in a list gets a float32 gradient."""
    cls = like.__class__
    if cls is dict and g.__class__ is dict:
        return {k: cast_tree(v, like[k]) if k in like else v for k, v in g.items()}
    if (cls is list or cls is tuple) and g.__class__ is cls and len(g) == len(like):
        return cls([cast_tree(a, b) for a, b in zip(g, like)])
    return cast_like(g, like)


def cast_grads(grads, likes, single):
    """``cast_like`` over a gradient (``single``) or a tuple of them, one per parameter value."""
    if single:
        return cast_like(grads, likes[0])
    return tuple(cast_like(g, x) for g, x in zip(grads, likes))


_KINDS = frozenset("fciub")


def specialisation(arguments, indexed):
    """What a variant is specialised on, from the bound ``arguments`` (name -> value): parameters
    bound to Python floats (0-d: no broadcasting bookkeeping, ``math`` functions); written
    ``"x[]"``, 1-d float64 array parameters the body subscripts (names in ``indexed``), whose
    elements ``x[i]`` are float64 scalars; written ``"x:2f"``, the ndim and dtype kind of
    numeric arrays and numpy scalars, with ``"~1n"`` added when some axis has length 1 (which
    one: ``_ones``); and written ``"p=[f...]"``, the ``structure`` of lists,
    tuples and dicts.  A sorted tuple: part of the variant's cache key."""
    out = []
    for k, v in arguments.items():
        cls = v.__class__
        if isinstance(v, float):          # numpy's float64 scalars too: they take math functions
            out.append(k)
        elif cls is np.ndarray or isinstance(v, np.generic):
            kind = v.dtype.kind
            if kind in _KINDS:
                shape = v.shape
                out.append(f"{k}:{v.ndim}{kind}" if 1 not in shape else f"{k}:{v.ndim}{kind}~{_ones(shape)}")
            if k in indexed and cls is np.ndarray and v.ndim == 1 and v.dtype == np.float64:
                out.append(k + "[]")
        elif isinstance(v, _CONTAINERS):
            out.append(f"{k}={structure(v)}")
    return tuple(sorted(out))


def structure(value):
    """A container's structure as a short string: ``[f...]`` a list of one or more Python floats
    (any number: the length does not change the code, and a new length must not cost a new
    variant), ``(2f,1f)`` a tuple of a 2-d and a 1-d float array, ``{'W':2f,'b':1f}`` a dict
    in its keys' order, ``[]`` empty; other leaves by ndim and dtype kind (``0i``), or their
    type's name."""
    if isinstance(value, dict):
        return "{" + ",".join(f"{k!r}:{structure(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        items = [structure(v) for v in value]
        inner = items[0] + "..." if items and all(i == items[0] for i in items) else ",".join(items)
        return ("[" + inner + "]") if isinstance(value, list) else ("(" + inner + ")")
    if value.__class__ is float:
        return "f"
    if isinstance(value, (np.ndarray, np.generic)):
        return f"{value.ndim}{value.dtype.kind}"
    return type(value).__name__


def subscripted(fn):
    """Names ``fn``'s source subscripts (``x[i]``); empty when the source cannot be read."""
    import ast
    import inspect
    import textwrap

    from ..core.once import parse
    try:
        node = parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):
        return frozenset()
    return frozenset(n.value.id for n in ast.walk(node)
                     if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name))


def split_floats(spec):
    """A variant's specialisation (``api._Transformer.floats``) as (Python-float parameters,
    1-d float64 array parameters whose elements the body reads): ``("a", "x[]", "y:2f")`` ->
    ``(("a",), ("x",))``."""
    spec = [n for n in spec if "=" not in n]           # containers' structures: neither
    floats = tuple(n for n in spec if not n.endswith("[]") and ":" not in n)
    return floats, tuple(n[:-2] for n in spec if n.endswith("[]"))


def split_arrays(spec):
    """``name -> (ndim, real, python_float, ones)`` for every parameter of known ndim in a
    specialisation: arrays and numpy scalars (``"y:2f"``, ``"y:2f~1n"``) and Python floats
    (0-d, real); ``ones`` says which axes have length 1 (``(True, False)``).  Empty for the
    general variant."""
    out = {}
    for n in spec:
        if "=" in n:                      # a container's structure
            continue
        if ":" in n:
            name, code = n.split(":")
            code, _, ones = code.partition("~")
            ndim = int(code[:-1])
            out[name] = (ndim, code[-1] != "c", False, tuple(c == "1" for c in ones) if ones else (False,) * ndim)
        elif not n.endswith("[]"):
            out[n] = (0, True, True, ())
    return out


def fast_call(gen, sig, args, preserve_result):
    """``run(args, seed)`` for later calls with the signature of ``args`` (``key_of``): the
    generated function and the cast of each gradient to its parameter's dtype, nothing else.
    None when a ``wrt`` parameter is not among the positional arguments."""
    nargs = len(args)
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
    if any(isinstance(args[i], _CONTAINERS) for i in where):
        return _structured_call(function, seed_name, where, one, wrap, preserve_result)

    if not wrap and all(args[i].__class__ is float for i in where):   # the signature fixes the classes
        def run_floats(args, seed):            # Python floats' gradients are floats: nothing to cast
            return function(*args) if seed is None else function(*args, **{seed_name: seed})
        return run_floats

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


def _structured_call(function, seed_name, where, one, wrap, preserve_result):
    """``fast_call``'s ``run`` when a ``wrt`` argument is a container: each gradient given its
    argument's structure (``restructure``) and each leaf its dtype, as the first call did
    (``variants._restructured``)."""
    def run(args, seed):
        out = function(*args) if seed is None else function(*args, **{seed_name: seed})
        grads = out[0] if preserve_result else out
        grads = [grads] if one else grads
        grads = tuple([cast_tree(restructure(g, args[i]), args[i]) for g, i in zip(grads, where)])
        if one:
            grads = grads if wrap else grads[0]
        return (grads, out[1]) if preserve_result else grads
    return run
