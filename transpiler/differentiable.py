"""``@differentiate``: a function with its generated gradient attached."""

import functools
import inspect
import sys

from . import bridge, display, star_wrt
from .frontend.source.pickled import attach, carried, importable
from .modes.checkpoint_schedule import parse_budget
from .core.same_code import same_code
from .jit import require_numba
from .targets import target
from .variants import _key, run_jvp, split_vjp, transformer

__all__ = ["differentiate", "Differentiable"]


class Differentiable:
    """A function with its generated gradient attached (what ``@differentiate`` returns)."""

    def __init__(self, fn, wrt=None, mode="reverse", memory_budget=None, jit=False):
        if mode not in ("reverse", "forward"):
            raise ValueError(f"mode={mode!r}: use mode='reverse' or mode='forward'")
        functools.update_wrapper(self, fn)
        self._fn = fn
        self._given_wrt = wrt                 # None: the default, the first parameter
        self._wrt = wrt = 0 if wrt is None else wrt
        self._mode = mode
        self._budget = parse_budget(memory_budget)
        if self._budget is not None and mode == "forward":
            raise ValueError("memory_budget bounds what reverse mode keeps for its adjoint; "
                             "forward mode keeps nothing: drop it or use mode='reverse'")
        self._jit = bool(jit)
        if self._jit:
            if mode == "forward":
                raise ValueError("jit=True compiles reverse-mode gradients (grad, value_and_grad); "
                                 "drop it or use mode='reverse'")
            require_numba()
        self._t = transformer(fn)
        self._star = star_wrt.targets_items(fn, wrt)  # generated per call shape (star_wrt.py)
        if not self._star:
            self._t.get(wrt, False, ahead=True, mode=mode, memory_budget=self._budget)

    def _differentiates(self):
        return self._t              # (variants.transformer): this function's own cache

    def __call__(self, *args, **kwargs):
        if bridge.has_tensor(args, kwargs):  # runtime tensors: one recorded op (bridge/tape_call.py)
            return bridge.call(self, args, kwargs)
        return self._fn(*args, **kwargs)

    def grad(self, *args, **kwargs):
        """The gradient(s) with respect to ``wrt`` at these arguments."""
        if not self._star:
            return self._t.call(self._wrt, False, args, kwargs, memory_budget=self._budget, jit=self._jit)
        t, wrt, kwargs, regroup = star_wrt.resolve(self._t, self._wrt, args, kwargs)
        return regroup(t.call(wrt, False, args, kwargs, memory_budget=self._budget, jit=self._jit))

    def value_and_grad(self, *args, **kwargs):
        t, wrt, regroup = self._t, self._wrt, star_wrt.same
        if self._star:
            t, wrt, kwargs, regroup = star_wrt.resolve(t, wrt, args, kwargs)
        g, value = t.call(wrt, True, args, kwargs, memory_budget=self._budget, jit=self._jit)
        return value, regroup(g)

    def vjp(self, *args, **kwargs):
        """``(value, pullback)``; ``pullback(cotangent)`` gives the gradient(s)."""
        t, wrt, kwargs, regroup = star_wrt.resolve(self._t, self._wrt, args, kwargs)
        value, pullback = split_vjp(t, wrt, args, kwargs, self._budget)
        return value, lambda cotangent=None: regroup(pullback(cotangent))

    def jvp(self, primals, tangents):
        """Forward mode: ``(value, directional derivative)`` along ``tangents``: one per wrt
        parameter, or -- when ``wrt`` was not given -- one per argument in ``primals``."""
        primals = tuple(primals) if isinstance(primals, (tuple, list)) else (primals,)
        wrt = self._wrt
        if self._given_wrt is None and isinstance(tangents, (tuple, list)) and 1 < len(tangents) == len(primals):
            wrt = tuple(range(len(primals)))          # f.jvp((x, y), (dx, dy)): along every argument
        t, wrt, _, _ = star_wrt.resolve(self._t, wrt, primals, {})
        return run_jvp(t, wrt, primals, tangents)

    @property
    def source(self):
        """The generated module (what ``grad`` runs; the tangent code for mode="forward")."""
        if self._mode == "forward":
            return self._t.get(self._wrt, False, mode="forward").source
        key = (_key(self._wrt), False) + ((("memory_budget", self._budget),) if self._budget else ())
        gen = self._t.cache.get(key)
        if gen is None:
            if self._t.deferred is not None:
                return (f"# not generated yet: `{self._t.deferred}` was not defined when "
                        "@differentiate ran;\n# the gradient is generated on first use.\n")
            gen = self._t.get(self._wrt, False, memory_budget=self._budget)
        return gen.source

    def show(self, *args, **kwargs):
        """Print the generated code: the general variant, or with arguments, the variant a call
        with these arguments runs (``f.show(0.3, 1000)``: specialised on Python floats)."""
        if not (args or kwargs) or self._mode == "forward":
            display.show(repr(self), self.source)
            return
        gen = self._t.get(self._wrt, False, floats=self._t.floats(args, kwargs), memory_budget=self._budget)
        display.show(repr(self), gen.source)

    def _repr_html_(self):
        return display.html_source(repr(self), self.source)

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        return _BoundDifferentiable(self, instance)

    def __reduce__(self):
        if importable(self) or _in_main(self) and not _by_value():
            return self.__qualname__          # found by name where it is unpickled (a process pool)
        return _rebuild_differentiable, (self._fn, self._given_wrt, self._mode, carried(self._t), self._budget,
                                         self._jit)

    def __repr__(self):
        return f"<differentiable {self.__qualname__} wrt={self._wrt!r}>"


class _BoundDifferentiable:
    """``obj.method`` for a decorated method: the instance is passed as the first argument."""

    def __init__(self, d, instance):
        self._d, self._self = d, instance

    def __call__(self, *args, **kwargs):
        if bridge.has_tensor(args, kwargs):
            return bridge.call(self._d, (self._self,) + args, kwargs)
        return self._d._fn(self._self, *args, **kwargs)

    def grad(self, *args, **kwargs):
        return self._d.grad(self._self, *args, **kwargs)

    def value_and_grad(self, *args, **kwargs):
        return self._d.value_and_grad(self._self, *args, **kwargs)

    def vjp(self, *args, **kwargs):
        return self._d.vjp(self._self, *args, **kwargs)

    def jvp(self, primals, tangents):
        primals = tuple(primals) if isinstance(primals, (tuple, list)) else (primals,)
        return self._d.jvp((self._self,) + primals, tangents)

    source = property(lambda self: self._d.source)

    def show(self, *args, **kwargs):
        self._d.show(*((self._self,) + args if args or kwargs else ()), **kwargs)


def differentiate(fn=None, *, wrt=None, mode="reverse", memory_budget=None, jit=False):
    """Decorator: attach a generated gradient to ``fn`` (``@differentiate`` or ``@differentiate(wrt=...)``).

    ``wrt`` defaults to the first parameter (``f.jvp`` then also takes one tangent per argument).
    For a method, ``wrt`` counts ``self`` as parameter 0, so use ``wrt=1`` or a name.
    ``memory_budget`` (bytes, or a string such as "8MB") checkpoints loops to stay within it.
    ``jit=True`` compiles the gradient with numba (docs/transpiler/jit.md; needs ``pip install adjoin[jit]``).
    """
    if fn is None:
        return lambda f: differentiate(f, wrt=wrt, mode=mode, memory_budget=memory_budget, jit=jit)
    fn = target(fn, "differentiate")
    if inspect.ismethod(fn) and inspect.isfunction(fn.__func__):
        # a bound method (model.__call__): wrt counts the visible parameters, self is fixed
        return _BoundDifferentiable(Differentiable(fn.__func__, wrt=_past_self(0 if wrt is None else wrt), mode=mode,
                                                   memory_budget=memory_budget, jit=jit), fn.__self__)
    return Differentiable(fn, wrt=wrt, mode=mode, memory_budget=memory_budget, jit=jit)


def _past_self(wrt):
    """``wrt`` of a bound method, counted on its function (self is parameter 0)."""
    shifted = tuple(w + 1 if isinstance(w, int) and not isinstance(w, bool) and w >= 0 else w
                    for w in (wrt if isinstance(wrt, (tuple, list)) else (wrt,)))
    return shifted if isinstance(wrt, (tuple, list)) else shifted[0]


def _in_main(obj):
    """Is ``obj`` the object its name finds in the running script (``__main__``)?"""
    found = sys.modules.get("__main__")
    for part in obj.__qualname__.split("."):
        found = getattr(found, part, None)
    return getattr(obj, "__module__", None) == "__main__" and found is obj


def _by_value():
    """Is cloudpickle pickling this (it carries a script's functions by value, to processes that
    have no script), rather than pickle (which finds them by name, as a process pool does)?"""
    frame = sys._getframe(2)
    while frame is not None:
        if frame.f_globals.get("__name__", "").partition(".")[0] == "cloudpickle":
            return True
        frame = frame.f_back
    return False


def attach_checked(sources):
    """Attach the source texts a pickle carried (frontend/carried.py) to the functions it names,
    after checking each against the function's code: a function found by name (importable) is
    read from its own file and never touched; a function carried by value whose text does not
    compile to its code means the pickle was altered, and is refused."""
    trusted = []
    for fn, source in sources:
        if not inspect.isfunction(fn) or importable(fn):
            continue
        filename, _, text = source
        if not same_code(fn, text, filename):
            raise ValueError(f"the source this pickle carries for {fn.__qualname__}() does not compile to the code "
                             "it carries: the pickle was altered or mixes different versions of the function; "
                             "refusing to differentiate it")
        trusted.append((fn, source))
    attach(trusted)


def _rebuild_differentiable(fn, wrt, mode, sources, memory_budget=None, jit=False):
    attach_checked(sources)
    return Differentiable(fn, wrt=wrt, mode=mode, memory_budget=memory_budget, jit=jit)
