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
"""

__all__ = ["Rule", "define", "nondifferentiable", "lookup", "primitive", "RULES", "Alias", "alias",
           "ALIASES", "alias_for", "add_alias_hook", "COMPOSITES"]


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
    for fn in fns:
        RULES[_key(fn)] = rule
        raw = getattr(fn, "raw", None)
        if raw is not None:
            RULES[_key(raw)] = rule
    return rule


def nondifferentiable(*fns):
    """Mark primitives whose outputs never carry gradients (comparisons, floor, argmax, ...).

    The tape computes them without recording (so gradients through them are None, as in TF);
    the transpiler treats their results as constants.
    """
    for fn in fns:
        rule = Rule(fn, _name_of(fn), (), (), False, getattr(fn, "raw", fn))
        RULES[_key(fn)] = rule
        raw = getattr(fn, "raw", None)
        if raw is not None:
            RULES[_key(raw)] = rule


def lookup(fn):
    """The Rule for ``fn``, or None when ``fn`` is not a known primitive."""
    try:
        return RULES.get(_key(fn))
    except TypeError:  # unhashable callable
        return None


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
    if mod.startswith("numpy") or type(fn).__name__ == "ufunc":
        return "np." + getattr(fn, "__name__", name)
    if mod in ("math", "operator", "builtins"):
        return f"{mod}.{name}"
    return name


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
        return raw(*args, **kwargs)

    wrapper.raw = raw
    return wrapper
