"""The public surface: ``@differentiate``, ``grad``, ``value_and_grad``, ``vjp``.

``transform`` runs the passes in order (parse -> normalize -> analyze -> reverse ->
optimize -> codegen) and keeps every intermediate AST on the result, so each stage can be
printed.  Generation happens when the decorator runs; a name that is not defined yet
postpones it to the first call.
"""

import functools
import inspect
import types
import warnings
import weakref

import numpy as np

from . import interop
from .analysis import signature
from .frontend import sugar
from . import tangent_compat
from .analysis.activity import analyze
from .analysis.zeros import structural_zeros
from .modes.callees import callee_sources
from .backend.codegen import compile_function, free_names, module_source, to_source
from .core.context import Context
from .core.callables import plain_function, register_transformer, register_wrapper
from .core.errors import TranspileError, Unresolved, ZeroGradientWarning
from .core.ir import output_names
from .modes.forward import forward
from .frontend.normalize import normalize
from .backend.optimize import optimize
from .frontend.carried import attach, carried, importable
from .frontend.parsing import parse_function, weakly, wrt_names
from .modes.reverse import reverse
from .modes import floats as _floats
from .core.astutil import copy_ast
from .core.stages import Later, Stages
from .core.ir import walk_assigns
from .analysis.activity import range_targets
from runtime.rules.containers import restructure

from .modes import again  # noqa: F401  (registers how generated code is read again)
from .modes.split import transform_split
from .modes.checkpoint_schedule import parse_budget

__all__ = ["differentiate", "grad", "value_and_grad", "vjp", "jvp", "transform", "Generated"]


class Generated:
    """The result of one transformation: ASTs of every stage, the source and the function."""

    def __init__(self, ctx, stages, node, code, function, seed_name, wrt, single, note):
        self.ctx, self.stages, self.node, self.code = ctx, stages, node, code
        self.function, self.seed_name, self.wrt, self.single = function, seed_name, wrt, single
        self.note = note
        self._own_source = None

    @property
    def own_source(self):
        """This function's module text, made when first shown (most calls never print it)."""
        if self._own_source is None:
            self._own_source = module_source(self.node, self.code, self.ctx, self.note)
        return self._own_source

    @property
    def source(self):
        """This function's module, then the generated code of the user functions it calls."""
        return self.own_source + "".join("\n\n" + part + "\n" for part in callee_sources(self.ctx))

    def __call__(self, *args, **kwargs):
        return self.function(*args, **kwargs)


def transform(fn, wrt=0, preserve_result=False, note=None, mode="reverse", floats=(), optimized=True,
              memory_budget=None):
    """Generate the gradient (``mode="forward"``: the tangent function) of ``fn``.

    ``floats``: parameters known to hold Python floats, so the analysis treats them as 0-d.
    Raises TranspileError or Unresolved."""
    parsed = parse_function(fn)
    names, single = wrt_names(parsed.node, wrt)
    ctx = Context(parsed)
    ctx.memory_budget = memory_budget        # callees are generated with the same budget
    core = normalize(ctx)
    outputs = output_names(core)
    pyfloats, elements = signature.split_floats(floats)
    ctx.arrays = signature.split_arrays(floats)      # ndim of each argument: backend/shapes.py
    if elements:
        _floats.share_element_reads(core, elements)
    info = analyze(core, names, outputs, pyfloats, elements)
    if not parsed.filename.startswith("<adjoin"):     # generated code read again: not the user's
        _warn_zeros(fn, structural_zeros(core, info, names, outputs, parsed.filename, pyfloats, elements))

    if mode in ("forward", "tangent"):       # "tangent": returns the tangent only (hvp, hessian)
        name = ctx.namer.claim(f"jvp_{parsed.name}")
        rev = forward(ctx, core, info, names, name, tangent_only=mode == "tangent")
        seed = tuple(a.arg for a in rev.args.kwonlyargs[-len(names):])   # the tangent parameters
    else:
        name = ctx.namer.claim(f"d{parsed.name}d{'_'.join(names)}")
        seed = ctx.namer.claim("bout")
        rev = reverse(ctx, core, info, names, preserve_result, name, seed, memory_budget)
    specialised = 0
    if (pyfloats or elements) and mode == "reverse":   # Python floats: math instead of numpy (modes/floats.py)
        nums = _floats.pynums(core, pyfloats, list(walk_assigns(core.body)), info.ops, range_targets(core.body),
                              elements)
        if nums:
            specialised = _floats.to_math(rev, ctx, nums, ctx.resolve)
    stages = Stages(parsed=parsed.node, normalized=core)
    if optimized:      # optimize rewrites in place: the stage before it is regenerated if asked for
        again = weakly(fn)       # the stage must not keep fn alive (generated code lives as long as fn)
        stages[mode] = Later(lambda: transform(again(), wrt, preserve_result, note, mode, floats, False,
                                               memory_budget).node)
    else:
        stages[mode] = copy_ast(rev)
    opt = optimize(rev, ctx) if optimized else rev
    stages["optimized"] = opt
    used = set(free_names(opt))
    ctx.injected = {k: v for k, v in ctx.injected.items() if k in used}
    code = to_source(opt)
    function = sugar.guard(compile_function(opt, code, ctx), ctx)
    gen = Generated(ctx, stages, opt, code, function, seed, names, single, note)
    gen.specialised = specialised
    return gen


_WARNED = weakref.WeakKeyDictionary()     # fn -> messages already given (variants share them)


def _warn_zeros(fn, zeros):
    """Warn once per function and message, however many variants (floats, modes) are generated."""
    try:
        seen = _WARNED.setdefault(fn, set())
    except TypeError:
        seen = set()
    for _, message in zeros:
        if message not in seen:
            seen.add(message)
            warnings.warn(ZeroGradientWarning(message), stacklevel=4)


def _check_wrt_value(fname, pname, value):
    """Gradients exist for floating-point inputs only; say so clearly for anything else."""
    if isinstance(value, (list, tuple, dict)):        # a structure: every leaf must be a float
        for item in (value.values() if isinstance(value, dict) else value):
            _check_wrt_value(fname, pname, item)
        return
    if isinstance(value, (bool, np.bool_)) or isinstance(value, (int, np.integer)):
        raise TypeError(f"{fname}: cannot differentiate with respect to `{pname}`, which is the "
                        f"integer {value!r}; pass a float ({float(value)!r}) or a float array")
    if isinstance(value, (float, complex, np.floating, np.complexfloating)):
        return
    dtype = getattr(value, "dtype", None)
    if dtype is not None:
        if getattr(dtype, "is_floating", False) or getattr(dtype, "is_complex", False):
            return
        try:
            kind = np.dtype(dtype).kind
        except TypeError:
            kind = getattr(getattr(dtype, "as_numpy_dtype", None), "__name__", "?")[:1]
        if kind in ("f", "c"):
            return
        raise TypeError(f"{fname}: cannot differentiate with respect to `{pname}`, an array of dtype "
                        f"{dtype}; convert it with .astype(np.float64)")
    raise TypeError(f"{fname}: cannot differentiate with respect to `{pname}` of type "
                    f"{type(value).__name__}; gradients need a float or a numpy float array")


class _Transformer:
    """Caches generated code for one function per (wrt, preserve_result)."""

    def __init__(self, fn):
        self._fn = weakref.ref(fn)   # held weakly: _TRANSFORMERS is keyed by fn and must let it go
        self.cache = {}
        self.fast = {}          # (wrt, preserve_result, optimized, signature) -> run(args, seed)
        self.deferred = None
        self.signature = inspect.signature(fn)

    @property
    def fn(self):
        return self._fn()

    def get(self, wrt, preserve_result=False, ahead=False, mode="reverse", floats=(), optimized=True,
            memory_budget=None):
        key = (tuple(wrt) if isinstance(wrt, (tuple, list)) else wrt, preserve_result)
        if memory_budget is not None:
            key += (("memory_budget", memory_budget),)
        if mode != "reverse":
            key += (mode,)
        if floats:
            key += (floats,)
        if not optimized:
            key += ("unoptimized",)
        gen = self.cache.get(key)
        if gen is not None:
            return gen
        note = None
        if self.deferred is not None:
            note = [f"generated on first use: `{self.deferred}` was not defined yet when "
                    "@differentiate ran"]
        try:
            if mode == "split":          # fwd/bwd pair (split.py)
                extra = () if memory_budget is None else (memory_budget,)
                gen = transform_split(self.fn, wrt, note, *extra)
            else:
                gen = transform(self.fn, wrt, preserve_result, note, mode, floats, optimized, memory_budget)
                if getattr(gen, "specialised", 0):      # math can raise where numpy gives inf/nan
                    gen.function = _floats.run_with_fallback(
                        gen.function, lambda: self.get(wrt, preserve_result, mode=mode, optimized=optimized,
                                                       memory_budget=memory_budget))
        except Unresolved as e:
            if ahead:
                self.deferred = e.name
                return None
            parsed = parse_function(self.fn)
            raise parsed.error(f"name `{e.name}` is not defined", e.node,
                               f"define `{e.name}` before calling the gradient of "
                               f"{parsed.name}()") from None
        self.cache[key] = gen
        return gen

    def check(self, gen, args, kwargs):
        try:
            bound = self.signature.bind(*args, **kwargs)
        except TypeError as e:
            raise TypeError(f"{self.fn.__name__}(): {e}") from None
        for name in gen.wrt:
            if name in bound.arguments:
                _check_wrt_value(self.fn.__name__, name, bound.arguments[name])

    def floats(self, args, kwargs):
        """The specialisation of a call (``signature.specialisation``): its Python-float
        parameters, and its 1-d float64 array parameters that the body indexes."""
        try:
            bound = self.signature.bind(*args, **kwargs)
        except TypeError:
            return ()          # check() reports the bad call
        if getattr(self, "_indexed", None) is None:
            self._indexed = signature.subscripted(self.fn)
        return signature.specialisation(bound.arguments, self._indexed)

    def call(self, wrt, preserve_result, args, kwargs, seed=None, optimized=True, memory_budget=None):
        sig = None if kwargs else signature.key_of(args)
        if sig is not None:
            fast = self.fast.get((_key(wrt), preserve_result, optimized, sig, memory_budget))
            if fast is not None:            # this signature was checked before: run its variant
                return fast(args, seed)
        gen = self.get(wrt, preserve_result, floats=self.floats(args, kwargs), optimized=optimized,
                       memory_budget=memory_budget)
        self.check(gen, args, kwargs)
        if seed is not None:
            kwargs = dict(kwargs)
            kwargs[gen.seed_name] = seed
        out = _restructured(gen, self.signature, args, kwargs, preserve_result, gen.function(*args, **kwargs))
        if not gen.single and len(gen.wrt) == 1:      # wrt=(0,): a tuple of one gradient
            out = ((out[0],), out[1]) if preserve_result else (out,)
        if sig is not None:
            fast = signature.fast_call(gen, self.signature, len(args), preserve_result)
            if fast is not None:
                self.fast[(_key(wrt), preserve_result, optimized, sig, memory_budget)] = fast
        return out


def _restructured(gen, signature_, args, kwargs, preserve_result, result):
    """Gradients with respect to a dict, list or tuple argument in that argument's structure,
    and each in its parameter's dtype."""
    seed = getattr(gen, "seed_name", None)          # a split pair (vjp) has none
    bound = signature_.bind(*args, **{k: v for k, v in kwargs.items() if k != seed})
    likes = [bound.arguments.get(name) for name in gen.wrt]
    grads, value = result if preserve_result else (result, None)
    grads = signature.cast_grads(grads, likes, len(gen.wrt) == 1)
    result = (grads, value) if preserve_result else grads
    if not any(isinstance(like, (list, tuple, dict)) for like in likes):
        return result
    if len(gen.wrt) == 1:
        grads = restructure(grads, likes[0])
    else:
        grads = tuple(restructure(g, like) for g, like in zip(grads, likes))
    return (grads, value) if preserve_result else grads


_TRANSFORMERS = weakref.WeakKeyDictionary()


def _transformer(fn):
    if isinstance(fn, Differentiable):
        return fn._t
    if isinstance(fn, GradientFunction) and fn._kind == "grad":
        if fn._budget is not None:
            raise _checkpointed_again(fn._t.fn)
        fn = fn.function       # grad(grad(f)): transform the generated gradient's own source
    t = _TRANSFORMERS.get(fn)
    if t is None:
        t = _TRANSFORMERS[fn] = _Transformer(fn)
    return t


def _checkpointed_again(fn):
    """The error for grad(grad(f, memory_budget=...)): higher order needs a recorded loop."""
    code = fn.__code__
    return TranspileError(f"the gradient of {fn.__qualname__}() with memory_budget cannot be differentiated "
                          "again: its checkpointed loops recompute their trips at run time",
                          code.co_filename, code.co_firstlineno,
                          hint=f"differentiate the function itself twice without a budget "
                               f"(grad(grad({fn.__name__})) or hvp({fn.__name__}, ...))")


class Differentiable:
    """A function with its generated gradient attached (what ``@differentiate`` returns)."""

    def __init__(self, fn, wrt=0, mode="reverse", memory_budget=None):
        if mode not in ("reverse", "forward"):
            raise ValueError(f"mode={mode!r}: use mode='reverse' or mode='forward'")
        functools.update_wrapper(self, fn)
        self._fn = fn
        self._wrt = wrt
        self._mode = mode
        self._budget = parse_budget(memory_budget)
        if self._budget is not None and mode == "forward":
            raise ValueError("memory_budget bounds what reverse mode keeps for its adjoint; "
                             "forward mode keeps nothing: drop it or use mode='reverse'")
        self._t = _transformer(fn)
        self._t.get(wrt, False, ahead=True, mode=mode, memory_budget=self._budget)

    def __call__(self, *args, **kwargs):
        if interop.has_tensor(args, kwargs):  # runtime tensors: one recorded op (interop.py)
            return interop.call(self, args, kwargs)
        return self._fn(*args, **kwargs)

    def grad(self, *args, **kwargs):
        """The gradient(s) with respect to ``wrt`` at these arguments."""
        return self._t.call(self._wrt, False, args, kwargs, memory_budget=self._budget)

    def value_and_grad(self, *args, **kwargs):
        g, value = self._t.call(self._wrt, True, args, kwargs, memory_budget=self._budget)
        return value, g

    def vjp(self, *args, **kwargs):
        """``(value, pullback)``; ``pullback(cotangent)`` gives the gradient(s)."""
        return _split_vjp(self._t, self._wrt, args, kwargs, self._budget)

    def jvp(self, primals, tangents):
        """Forward mode: ``(value, directional derivative)`` along ``tangents`` (one per wrt)."""
        return _jvp(self._t, self._wrt, primals, tangents)

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
            print(self.source, end="")
            return
        gen = self._t.get(self._wrt, False, floats=self._t.floats(args, kwargs), memory_budget=self._budget)
        print(gen.source, end="")

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        return _BoundDifferentiable(self, instance)

    def __reduce__(self):
        if importable(self):
            return self.__qualname__
        return _rebuild_differentiable, (self._fn, self._wrt, self._mode, carried(self._t), self._budget)

    def __repr__(self):
        return f"<differentiable {self.__qualname__} wrt={self._wrt!r}>"


def _key(wrt):
    return tuple(wrt) if isinstance(wrt, (tuple, list)) else wrt


class _BoundDifferentiable:
    """``obj.method`` for a decorated method: the instance is passed as the first argument."""

    def __init__(self, d, instance):
        self._d, self._self = d, instance

    def __call__(self, *args, **kwargs):
        if interop.has_tensor(args, kwargs):
            return interop.call(self._d, (self._self,) + args, kwargs)
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


def differentiate(fn=None, *, wrt=0, mode="reverse", memory_budget=None):
    """Decorator: attach a generated gradient to ``fn`` (``@differentiate`` or ``@differentiate(wrt=...)``).

    For a method, ``wrt`` counts ``self`` as parameter 0, so use ``wrt=1`` or a name.
    ``memory_budget`` (bytes, or a string such as "8MB") checkpoints loops to stay within it.
    """
    if fn is None:
        return lambda f: differentiate(f, wrt=wrt, mode=mode, memory_budget=memory_budget)
    if inspect.ismethod(fn) and inspect.isfunction(fn.__func__):
        # a bound method (model.__call__): wrt counts the visible parameters, self is fixed
        return _BoundDifferentiable(Differentiable(fn.__func__, wrt=_past_self(wrt), mode=mode,
                                                   memory_budget=memory_budget), fn.__self__)
    return Differentiable(fn, wrt=wrt, mode=mode, memory_budget=memory_budget)


def _past_self(wrt):
    """``wrt`` of a bound method, counted on its function (self is parameter 0)."""
    shifted = tuple(w + 1 if isinstance(w, int) and not isinstance(w, bool) and w >= 0 else w
                    for w in (wrt if isinstance(wrt, (tuple, list)) else (wrt,)))
    return shifted if isinstance(wrt, (tuple, list)) else shifted[0]


def _unbind(f, wrt):
    """``(function, self or None, wrt)``: a bound method (``model.loss``, or the gradient of one)
    is differentiated as its function with ``self`` fixed, so ``wrt=0`` is never ``self``."""
    target = f.function if isinstance(f, GradientFunction) and f._kind == "grad" else f
    if inspect.ismethod(target) and inspect.isfunction(target.__func__):
        return target.__func__, target.__self__, _past_self(wrt)
    return f, None, wrt


class GradientFunction:
    """What ``grad(f)`` returns: a plain callable that pickles (regenerated where unpickled).

    Like Tangent's gradient functions it also takes the seed (the output's cotangent) as
    one extra positional argument after ``f``'s own.
    """

    def __init__(self, f, wrt, preserve_result, kind, optimized=True, check_dims=False, memory_budget=None):
        self._given = (f, wrt)
        self._budget = parse_budget(memory_budget)
        f, self._self, wrt = _unbind(f, wrt)
        self._f, self._wrt, self._preserve, self._kind = f, wrt, preserve_result, kind
        self._optimized, self._check_dims = optimized, check_dims
        self._t = _transformer(f)
        fn = self._t.fn
        prefix = {"grad": "d", "value_and_grad": "vg_"}[kind]
        self.__name__ = f"{prefix}{fn.__name__}"
        self.__qualname__ = self.__name__
        self.__doc__ = f"{kind} of {fn.__qualname__} with respect to {wrt!r} (generated by adjoin)."
        self._t.get(wrt, preserve_result or kind == "value_and_grad", ahead=True, optimized=optimized,
                    memory_budget=self._budget)

    @property
    def function(self):
        """The generated Python function itself (plain source, so it can be transformed again)."""
        fn = self._generated().function
        return fn if self._self is None else types.MethodType(fn, self._self)

    def _generated(self):
        return self._t.get(self._wrt, self._preserve or self._kind == "value_and_grad",
                           optimized=self._optimized, memory_budget=self._budget)

    def __call__(self, *args, **kwargs):
        if self._self is not None:
            args = (self._self,) + args
        if self._kind == "value_and_grad":
            g, value = self._t.call(self._wrt, True, args, kwargs, memory_budget=self._budget)
            return value, g
        args, seed = tangent_compat.split_seed(self._t.signature, args, kwargs)
        keep = self._preserve or self._check_dims
        out = self._t.call(self._wrt, keep, args, kwargs, seed=seed, optimized=self._optimized,
                           memory_budget=self._budget)
        if not keep:
            return out
        g, value = out
        if self._check_dims:
            tangent_compat.check_dims(self._t.fn.__name__, value, seed)
        if not self._preserve:
            return g
        return (*g, value) if isinstance(self._wrt, (tuple, list)) else (g, value)

    @property
    def source(self):
        return self._generated().source

    def __reduce__(self):
        return (_rebuild, self._given + (self._preserve, self._kind, self._optimized, self._check_dims,
                                         carried(self._t), self._budget))

    def __repr__(self):
        return f"<{self._kind} of {self._t.fn.__qualname__} wrt={self._wrt!r}>"


def _rebuild(f, wrt, preserve_result, kind, optimized=True, check_dims=False, sources=(), memory_budget=None):
    attach(sources)
    return GradientFunction(f, wrt, preserve_result, kind, optimized, check_dims, memory_budget)


def _rebuild_differentiable(fn, wrt, mode, sources, memory_budget=None):
    attach(sources)
    return Differentiable(fn, wrt=wrt, mode=mode, memory_budget=memory_budget)


def grad(f, wrt=0, optimized=True, preserve_result=False, check_dims=False, verbose=0, memory_budget=None):
    """The gradient of ``f`` as a function of the same arguments (plus an optional seed).

    Accepts Tangent's ``tangent.grad`` arguments with the same meaning:
    ``preserve_result=True`` appends the value (``(dx, value)``; ``(dx, dy, value)`` for
    ``wrt=(0, 1)``); ``optimized=False`` skips the clean-up pass; ``check_dims=True`` raises
    unless the output has the seed's shape (a scalar when no seed is passed); ``verbose=1``
    prints the generated code, ``verbose=2`` every stage.  A tuple ``wrt`` always returns a
    tuple of gradients.  ``memory_budget`` (bytes, or "512KB", "8MB", "1.5GB") checkpoints
    loops so what the gradient keeps for its adjoint stays within it (README "Bounded memory").
    """
    g = GradientFunction(f, wrt, preserve_result, "grad", optimized, check_dims, memory_budget)
    if verbose:
        tangent_compat.show_stages(g._generated(), verbose)
    return g


def value_and_grad(f, wrt=0, verbose=0, memory_budget=None):
    """``(value, gradient)`` of ``f`` from one primal and one adjoint sweep."""
    g = GradientFunction(f, wrt, False, "value_and_grad", memory_budget=memory_budget)
    if verbose:
        print(g.source, end="")
    return g


def _jvp(t, wrt, primals, tangents):
    primals = tuple(primals) if isinstance(primals, (tuple, list)) else (primals,)
    tangents = tuple(tangents) if isinstance(tangents, (tuple, list)) else (tangents,)
    gen = t.get(wrt, False, mode="forward")
    t.check(gen, primals, {})
    if len(tangents) != len(gen.seed_name):
        raise ValueError(f"{t.fn.__name__}: {len(tangents)} tangent(s) given for "
                         f"{len(gen.seed_name)} wrt parameter(s) {gen.wrt}")
    value, tangent = gen.function(*primals, **dict(zip(gen.seed_name, tangents)))
    if isinstance(value, tuple) and isinstance(tangent, tuple) and len(value) == len(tangent):
        return value, tuple(signature.cast_like(d, v) for d, v in zip(tangent, value))
    return value, signature.cast_like(tangent, value)      # the tangent in the output's dtype


def jvp(f, primals, tangents, wrt=None):
    """Forward mode: ``(f(*primals), J @ tangents)`` from generated tangent code.

    ``wrt`` defaults to every positional argument given in ``primals``; ``tangents`` has one
    entry per ``wrt`` parameter (a single array when ``primals`` is a single array).
    """
    primals = tuple(primals) if isinstance(primals, (tuple, list)) else (primals,)
    if wrt is None:
        wrt = f._wrt if isinstance(f, Differentiable) else tuple(range(len(primals)))
    f, bound, wrt = _unbind(f, wrt)
    if bound is not None:
        primals = (bound,) + primals
    return _jvp(_transformer(f), wrt, primals, tangents)


def vjp(f, *args, wrt=0, memory_budget=None, **kwargs):
    """``(value, pullback)`` of ``f`` at ``args``; ``pullback(cotangent)`` gives the gradient(s)."""
    f, bound, wrt = _unbind(f, wrt)
    if bound is not None:
        args = (bound,) + args
    return _split_vjp(_transformer(f), wrt, args, kwargs, parse_budget(memory_budget))


def _split_vjp(t, wrt, args, kwargs, memory_budget=None):
    """One forward sweep now; the pullback runs only the backward on what it saved."""
    pair = t.get(wrt, False, mode="split", memory_budget=memory_budget)
    t.check(pair, args, kwargs)
    value, saved = pair.forward(*args, **kwargs)

    def pullback(cotangent=None):
        grads = _restructured(pair, t.signature, args, kwargs, False, pair.backward(saved, cotangent))
        return (grads,) if len(pair.wrt) == 1 and not pair.single else grads   # wrt=(0,), as grad

    return value, pullback


# the analysis and the modes reach these through core/callables.py (they may not import api)
register_transformer(_transformer)
register_wrapper(GradientFunction,      # grad(g)(x) inside f: its generated code, differentiated
                 lambda g: (g.function, None) if g._kind == "grad" and not g._preserve else None)
register_wrapper(_BoundDifferentiable, lambda b: (b._d._fn, b._self))
register_wrapper(Differentiable, lambda d: plain_function(d._fn))
