"""The table of primitives and their derivative rules: the one source of truth both halves read.

A *primitive* is any callable whose derivative is given by a rule rather than by
differentiating its body: numpy ufuncs and functions (``np.sin``, ``np.sum``), Python
operators (``operator.mul``), ``math`` functions, and the few numpy-level helpers defined
in this package (``sigmoid``, ``unbroadcast``, ...).

Rules are plain module-level ``def`` functions so the transpiler can read their source
and inline them; the tape simply calls them.

* VJP rule for argument i: ``vjp(g, ans, *args, **kwargs) -> contribution to d args[i]``
  (``g`` is the cotangent of the output ``ans``; the result has the shape of ``args[i]``).
* JVP rule for argument i: ``jvp(t, ans, *args, **kwargs) -> contribution to d ans``
  (``t`` is the tangent of ``args[i]``; the result has the shape of ``ans``).

Rules take the same positional/keyword parameters as the primitive itself, so a call's
arguments bind to a rule exactly as they bind to the primitive.  A rule is written with
numpy calls only; run on ``runtime.Tensor`` arguments it records itself on active tapes,
which is what makes higher derivatives work.

Adding a primitive (write each derivative once; ``forms`` makes the rule functions):

1. Put it in the family module it belongs to (``trig``, ``elementwise``, ``reductions``, ...;
   a new family also goes into ``FAMILIES`` below).
2. An elementwise function states its derivative, ``(ans, *parameters) -> d ans / d x``, or a
   tuple of partial derivatives, one per argument (None: no gradient)::

       @elementwise(np.arctan2)
       def d_arctan2(ans, y, x):
           return x / (x * x + y * y), -y / (x * x + y * y)

   A linear function gives its transpose (``@linear(np.fliplr) def fliplr_vjp(g, ans, m)``);
   a VJP that is also the JVP with ``g`` read as ``t`` is ``@symmetric`` (or ``jvp_like(vjp)``
   inside ``define``); a ``math`` twin of a numpy function is ``scalar(math.sin, d_sin)``.
   Anything else: ``define(fn, vjp=(fn_vjp_x, ...), jvp=(fn_jvp_x, ...))`` with hand-written
   rules (a JVP that repeats its VJP is a bug waiting: use a form).
3. ``python -m runtime.rules --index`` (which family registers what: lookups import only that
   family), and add a spec for the registry tests (tests/runtime/rules/rule_specs).
"""

import importlib
import sys

__all__ = ["Rule", "define", "nondifferentiable", "lookup", "primitive", "RULES", "Alias", "alias",
           "ALIASES", "alias_for", "add_alias_hook", "COMPOSITES", "FAMILIES", "load_all"]


class Rule:
    """What is known about one primitive."""

    __slots__ = ("fn", "name", "vjps", "jvps", "differentiable", "impl")

    def __init__(self, fn, name, vjps, jvps, differentiable, impl):
        self.fn = fn                      # the public callable (e.g. np.multiply)
        self.name = name                  # for error messages
        self.vjps = vjps                  # tuple indexed by positional argument; None = no gradient
        self.jvps = jvps
        self.differentiable = differentiable
        self.impl = impl                  # what computes the value on plain numpy arrays

    def vjp(self, argnum):
        """The VJP rule for positional argument ``argnum`` (None: no gradient flows there)."""
        return self.vjps[argnum] if argnum < len(self.vjps) else None

    def jvp(self, argnum):
        return self.jvps[argnum] if argnum < len(self.jvps) else None

    def __repr__(self):
        return f"<Rule {self.name}>"


RULES = {}
"""primitive callable -> Rule (several callables may share one Rule: ``np.add``, ``operator.add``)."""


def _key(fn):
    # bound methods of builtins (e.g. ``np.add.reduce``) are recreated on each access; key by
    # identity of the underlying callable where possible.
    return fn


def define(fns, vjp=(), jvp=(), name=None, impl=None):
    """Register derivative rules for one primitive (or several aliases of it).

    ``vjp`` / ``jvp`` are tuples with one entry per positional argument, in order; an entry
    of None means that argument never receives a gradient (an index, a shape, ...).
    """
    if not isinstance(fns, (tuple, list)):
        fns = (fns,)
    first = fns[0]
    rule = Rule(
        fn=first,
        name=name or _name_of(first),
        vjps=tuple(vjp),
        jvps=tuple(jvp),
        differentiable=True,
        impl=impl or getattr(first, "raw", first),
    )
    _register(fns, rule)
    return rule


def _register(fns, rule):
    family = _registrar()
    for fn in fns:
        RULES[_key(fn)] = rule
        REGISTERED_IN[_key(fn)] = family
        raw = getattr(fn, "raw", None)
        if raw is not None:
            RULES[_key(raw)] = rule
            REGISTERED_IN[_key(raw)] = family


def nondifferentiable(*fns):
    """Mark primitives whose outputs never carry gradients (comparisons, floor, argmax, ...).

    The tape computes them without recording (so gradients through them are None, as in TF);
    the transpiler treats their results as constants.
    """
    for fn in fns:
        _register((fn,), Rule(fn, _name_of(fn), (), (), False, getattr(fn, "raw", fn)))


def lookup(fn):
    """The Rule for ``fn``, or None when ``fn`` is not a known primitive (its family's module is
    imported here the first time one of its callables is looked up)."""
    try:
        rule = RULES.get(_key(fn))
    except TypeError:  # unhashable callable
        return None
    if rule is None:
        family = _family_of(fn)
        if family is not None:
            importlib.import_module(family)
            rule = RULES.get(_key(fn))
    return rule


# --- families: the modules of rules, each imported when one of its rules is first needed -------

FAMILIES = ("support", "arithmetic", "elementwise", "trig", "selection", "complexes", "activations",
            "reductions", "nanreductions", "statistics", "shape", "arrange", "joining", "products",
            "sorting", "selecting", "polynomials", "arrayapi", "emath", "calculus", "pymath",
            "pyspecial", "nondiff", "special", "nn", "conv", "linalg", "fft", "gather", "containers",
            "tuples", "inplace", "adjoint_helpers", "scipy_special", "scipy_signal", "scipy_linalg",
            "scipy_integrate")
"""Every module of this package that registers rules (``load_all`` imports them in this order)."""

NEEDS = {"scipy_special": "scipy", "scipy_signal": "scipy", "scipy_linalg": "scipy", "scipy_integrate": "scipy"}
"""Families that need an optional package (an extra): ``load_all`` skips them when it is missing."""

REGISTERED_IN = {}
"""primitive callable -> the module whose ``define`` / ``nondifferentiable`` registered it."""


def load_all():
    """Import every family, so ``RULES`` holds every rule (for code that enumerates them: the
    primitives table, the registry tests).  Lookups do not need it."""
    for family in FAMILIES:
        try:
            importlib.import_module(f"{__package__}.{family}")
        except ImportError as e:
            if family not in NEEDS or (e.name or "").partition(".")[0] != NEEDS[family]:
                raise


def _registrar():
    """The module registering a rule: the first caller outside this module and ``forms``."""
    frame = sys._getframe(2)
    while frame is not None and frame.f_globals.get("__name__") in _OWN:
        frame = frame.f_back
    return frame.f_globals.get("__name__") if frame is not None else None


_OWN = {__name__, f"{__package__}.forms"}

_UNRESOLVED = None
"""module name -> {attribute path: family}: the index's callables not yet found (their module
was not imported when last looked for); ``_FOUND`` holds the ones found: callable -> family."""
_FOUND = {}


def _family_of(fn):
    """The family module registering ``fn`` according to ``index.CALLABLES``, or None.  Index
    entries are resolved against modules already imported (never importing one to look)."""
    global _UNRESOLVED
    if _UNRESOLVED is None:
        from .index import CALLABLES as index
        unresolved = {}
        for family, names in index.items():
            for qualified in names:
                module, _, path = qualified.partition(":")
                unresolved.setdefault(module, {})[path] = f"{__package__}.{family}"
        _UNRESOLVED = unresolved        # (whole, for other threads)
    try:
        family = _FOUND.get(fn)
    except TypeError:
        return None
    if family is None and _UNRESOLVED:
        for module in [m for m in list(_UNRESOLVED) if m in sys.modules]:
            for path, fam in _UNRESOLVED.get(module, {}).items():
                obj = sys.modules[module]
                for part in path.split("."):
                    obj = getattr(obj, part, None)
                if obj is not None:
                    _FOUND[obj] = fam
            _UNRESOLVED.pop(module, None)   # (after its callables are found: other threads look meanwhile)
        family = _FOUND.get(fn)
    return family


class Alias:
    """A TF-style function that computes a registered primitive under another name.

    ``positional`` names the alias's parameters that become the primitive's positional
    arguments, in order; ``keywords`` maps alias parameters to the primitive's keywords.
    Any other parameter (except ``name``) must be left at its default.
    """

    __slots__ = ("fn", "canonical", "positional", "keywords")

    def __init__(self, fn, canonical, positional, keywords):
        self.fn, self.canonical = fn, canonical
        self.positional, self.keywords = tuple(positional), dict(keywords)

    def __repr__(self):
        return f"<Alias {_name_of(self.fn)} -> {_name_of(self.canonical)}>"


ALIASES = {}
"""TF-style callable -> Alias: the primitive the transpiler writes in its place."""


def alias(fn, canonical, positional, keywords=()):
    """Declare that ``fn(...)`` (e.g. ``tf.sin``) is ``canonical(...)`` (``np.sin``) on numpy values.

    The tape never needs this (``fn`` records ``canonical`` itself); the transpiler writes
    ``canonical`` into generated numpy code, so ``canonical`` must have a Rule.
    """
    if lookup(canonical) is None:
        raise ValueError(f"alias {_name_of(fn)} -> {_name_of(canonical)}: the target has no rule")
    ALIASES[fn] = Alias(fn, canonical, positional, dict(keywords))


_ALIAS_HOOKS = []
"""Functions ``hook(fn) -> Alias or None`` that build aliases on demand (custom gradients)."""


def alias_for(fn):
    """The Alias of ``fn``: a declared one, else one a hook builds, else None."""
    try:
        spec = ALIASES.get(fn)
    except TypeError:  # unhashable callable
        return None
    if spec is None:
        for hook in _ALIAS_HOOKS:
            spec = hook(fn)
            if spec is not None:
                break
    return spec


def add_alias_hook(hook):
    _ALIAS_HOOKS.append(hook)


def _name_of(fn):
    mod = getattr(fn, "__module__", None) or ""
    name = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or repr(fn)
    if type(fn).__name__ == "ufunc" and _scipy_ufunc(fn):
        return "scipy.special." + fn.__name__
    if mod.startswith("numpy") or type(fn).__name__ == "ufunc":
        sub = next((public for private, public in _NUMPY_SUBMODULES
                    if mod == "numpy." + private or mod.startswith(f"numpy.{private}.")), None)
        return ("np." if sub is None else f"np.{sub}.") + getattr(fn, "__name__", name)
    if mod in ("math", "operator", "_operator", "builtins"):
        return f"{mod.lstrip('_')}.{name}"
    if mod.startswith("scipy."):
        return f"scipy.{mod.split('.')[1]}.{name}"
    return name


def _scipy_ufunc(fn):
    """Is ``fn`` one of scipy.special's ufuncs (which have no ``__module__`` to say so)?"""
    special = sys.modules.get("scipy.special")
    return special is not None and getattr(special, fn.__name__, None) is fn \
        and getattr(sys.modules["numpy"], fn.__name__, None) is not fn


_NUMPY_SUBMODULES = (("linalg", "linalg"), ("fft", "fft"), ("random", "random"), ("polynomial", "polynomial"),
                     ("ma", "ma"), ("lib.scimath", "emath"), ("lib.stride_tricks", "lib.stride_tricks"),
                     ("lib._stride_tricks", "lib.stride_tricks"))

name_of = _name_of

# Where the rules of a numpy function's family live, by the (private) numpy module defining it.
_FAMILY_FILES = (
    ("numpy.linalg", "linalg/"), ("numpy.fft", "fft.py"), ("numpy._core.fromnumeric", "reductions.py"),
    ("numpy.lib._nanfunctions", "nanreductions.py"), ("numpy.lib._function_base", "statistics.py"),
    ("numpy.lib._shape_base", "arrange.py"), ("numpy.lib._twodim_base", "arrange.py"),
    ("numpy.lib._stride_tricks", "shape.py"), ("numpy._core.shape_base", "joining.py"),
    ("numpy._core.numeric", "products.py"), ("numpy._core.multiarray", "shape.py"),
    ("numpy.lib._arraypad", "arrange.py"), ("numpy._core.function_base", "arrange.py"),
    ("math", "pymath.py"), ("builtins", "pyspecial.py"), ("_operator", "arithmetic.py"),
)


def family_file(fn):
    """The file (relative to the project) where rules for ``fn``'s family live, when one exists."""
    import os

    here = os.path.dirname(os.path.abspath(__file__))
    if type(fn).__name__ == "ufunc":
        found = "elementwise.py"
    else:
        mod = getattr(fn, "__module__", None) or ""
        impl = getattr(getattr(fn, "__wrapped__", None), "__module__", None) or mod
        found = next((f for prefix, f in _FAMILY_FILES if impl.startswith(prefix) or mod.startswith(prefix)), None)
    if found is None or not os.path.exists(os.path.join(here, found)):
        return None
    return "runtime/rules/" + found


def add_rule_hint(fn):
    """What to do about ``fn`` having no rule: where its family's rules live and how to add one."""
    name = name_of(fn)
    short = getattr(fn, "__name__", "f")
    where = family_file(fn)
    place = f"the rules of its family live in {where}" if where else "rules live in the modules of runtime/rules/"
    return (f"{place}: add one there with runtime.rules.define({name}, vjp=({short}_vjp, ...), "
            f"jvp=({short}_jvp, ...)), or register it with runtime.rules.nondifferentiable({name}) "
            f"if no gradient flows through it")


def method_hint(meth):
    """For ``x.meth()`` without a rule: the numpy function if numpy has one, else how to add a rule."""
    import numpy as np
    fn = getattr(np, meth, None)
    if callable(fn):
        return f"call the numpy function instead (np.{meth}(x, ...)); " + add_rule_hint(fn)
    return ("numpy has no function of that name to use instead: compute the value outside the "
            "differentiated function, or add a primitive in a module of runtime/rules/ with "
            "runtime.rules.define(...)")


# --- primitives defined by this package -------------------------------------------------

COMPOSITES = {}
"""numpy function returning several arrays (``np.linalg.eigh``, ``svd``, ...) -> the same function
for tensor arguments, built from single-output primitives (the tape records one array per op)."""

TENSOR_TYPES = set()
"""Filled by ``runtime.tensor``: argument types that make a primitive call go through the tape."""

_DISPATCH = [None]
"""``_DISPATCH[0](fn, args, kwargs)`` runs a primitive on tensors and records it (set by the tape)."""


def primitive(raw):
    """Make a numpy-level function a primitive: on tensors it is recorded as one op.

    The undecorated function stays reachable as ``.raw`` (the transpiler writes that into
    standalone modules, and the tape calls it on plain arrays).
    """
    import functools

    tensor_types = TENSOR_TYPES
    dispatch = _DISPATCH

    @functools.wraps(raw)
    def wrapper(*args, **kwargs):
        for a in args:
            if type(a) in tensor_types:
                return dispatch[0](wrapper, args, kwargs)
        for v in kwargs.values():
            if type(v) in tensor_types:        # a tensor by keyword: recorded at its position
                import inspect
                bound = inspect.signature(raw).bind(*args, **kwargs)
                return dispatch[0](wrapper, bound.args, bound.kwargs)
        return raw(*args, **kwargs)

    wrapper.raw = raw
    return wrapper
