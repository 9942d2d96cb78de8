"""The per-function cache of generated variants, and running them.

One ``_Transformer`` per user function holds every variant generated for it -- per ``wrt``,
mode, memory budget and call signature (Python floats, indexed arrays) -- and the fast path of
calls whose signature it has checked before.  ``transformer(fn)`` finds or makes it.
"""

import inspect
import weakref

import numpy as np

from .analysis import signature
from .core.errors import Unresolved
from .core.depth import depth, room_for
from .core.once import GENERATING, once
from .core.same_code import same_code
from .frontend.source.parsing import parse_function
from .modes import floats as _floats
from .modes.split import transform_split
from .generate import transform
from . import jit as _jit
from .relocate import located
from runtime.rules.containers import restructure

__all__ = ["transformer", "run_jvp", "split_vjp", "as_tangent", "check_direction"]


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
        self.fast = {}          # (wrt, preserve_result, optimized, budget, jit) -> {signature: run(args, seed)}
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
        with GENERATING:        # one thread generates; the others then find it in the cache
            gen = self.cache.get(key)
            if gen is None:
                gen = self._generate(key, wrt, preserve_result, ahead, mode, floats, optimized, memory_budget)
            return gen

    def _generate(self, key, wrt, preserve_result, ahead, mode, floats, optimized, memory_budget):
        note = None
        if self.deferred is not None:
            note = [f"generated on first use: `{self.deferred}` was not defined yet when "
                    "@differentiate ran"]
        self._check_source()
        try:
            with room_for(self._depth()):         # a deep expression: the passes recurse that deep
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

    def _check_source(self):
        """Refuse when the source adjoin reads is not the code that runs (core/same_code.py)."""
        try:
            parsed = parse_function(self.fn)
        except Exception:        # noqa: BLE001  (the transformation reports it)
            return
        text = "".join(parsed.lines[i] for i in sorted(parsed.lines))
        if parsed.fn is None or same_code(parsed.fn, text, parsed.filename):
            return
        raise parsed.error(
            f"the source of {parsed.fn.__qualname__}() in {parsed.filename} is not the code that runs: the file "
            "changed after the function was made, or the function was made with exec or compile under this "
            "file name; adjoin differentiates the source, so it would differentiate other code", parsed.node,
            "reload the module (importlib.reload) after editing its file, or define the function in a file "
            "or notebook cell that holds its source")

    def _depth(self):
        """How deeply the function's AST nests (0 when it cannot be read: the transformation
        then says why)."""
        levels = self.__dict__.get("_levels")
        if levels is None:
            try:
                levels = depth(parse_function(self.fn).node)
            except Exception:        # noqa: BLE001  (reported by the transformation itself)
                levels = 0
            self._levels = levels
        return levels

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

    def calls(self, wrt, preserve_result, optimized=True, memory_budget=None, jit=False):
        """The table ``signature.key_of(args) -> run(args, seed)`` of one way of calling (``call``
        fills it with each signature it has checked): a caller holding it (``grad(f)``) goes
        straight to the variant on later calls."""
        key = (_key(wrt), preserve_result, optimized, memory_budget, bool(jit))
        table = self.fast.get(key)
        if table is None:
            table = self.fast.setdefault(key, {})      # one table, whichever thread comes first
        return table

    def call(self, wrt, preserve_result, args, kwargs, seed=None, optimized=True, memory_budget=None,
             jit=False):
        """Run the variant for these arguments (``jit``: compiled with numba, jit.py)."""
        sig = None if kwargs or seed is not None else signature.key_of(args)
        table = self.calls(wrt, preserve_result, optimized, memory_budget, jit)
        if sig is not None:
            fast = table.get(sig)
            if fast is not None:            # this signature was checked before: run its variant
                try:
                    return fast(args, seed)
                except Exception as e:
                    raise located(e)
        gen = self.get(wrt, preserve_result, floats=self.floats(args, kwargs), optimized=optimized,
                       memory_budget=memory_budget)
        if seed is not None and getattr(gen, "scalar_seed", False) and not _real_scalar(seed):
            # the variant takes a 0-d output's seed to be a real number (backend/shapes.py)
            gen = self.get(wrt, preserve_result, optimized=optimized, memory_budget=memory_budget)
        self.check(gen, args, kwargs)
        if jit:
            gen = _jit.view(gen)
        if seed is not None:
            kwargs = dict(kwargs)
            kwargs[gen.seed_name] = seed
        try:
            out = gen.function(*args, **kwargs)
        except Exception as e:
            raise located(e)
        out = _restructured(gen, self.signature, args, kwargs, preserve_result, out)
        if not gen.single and len(gen.wrt) == 1:      # wrt=(0,): a tuple of one gradient
            out = ((out[0],), out[1]) if preserve_result else (out,)
        if sig is not None:
            fast = signature.fast_call(gen, self.signature, args, preserve_result)
            if fast is not None:
                table[sig] = fast
        return out


def _real_scalar(seed):
    return np.ndim(seed) == 0 and not np.iscomplexobj(seed)


def _restructured(gen, signature_, args, kwargs, preserve_result, result):
    """Gradients with respect to a dict, list or tuple argument in that argument's structure,
    and each (each leaf of a structure) in its parameter's dtype."""
    seed = getattr(gen, "seed_name", None)          # a split pair (vjp) has none
    bound = signature_.bind(*args, **{k: v for k, v in kwargs.items() if k != seed})
    likes = [bound.arguments.get(name) for name in gen.wrt]
    grads, value = result if preserve_result else (result, None)
    grads = signature.cast_grads(grads, likes, len(gen.wrt) == 1)
    result = (grads, value) if preserve_result else grads
    if not any(isinstance(like, (list, tuple, dict)) for like in likes):
        return result
    if len(gen.wrt) == 1:
        grads = signature.cast_tree(restructure(grads, likes[0]), likes[0])
    else:
        grads = tuple(signature.cast_tree(restructure(g, like), like) for g, like in zip(grads, likes))
    return (grads, value) if preserve_result else grads


_TRANSFORMERS = weakref.WeakKeyDictionary()


def transformer(fn):
    """The cache of generated code for ``fn``.  A wrapper (``Differentiable``, ``grad(f)``) says
    through its ``_differentiates()`` what stands for it: its own cache, or the function to read."""
    reach = getattr(type(fn), "_differentiates", None)
    if reach is not None:
        fn = reach(fn)
        if isinstance(fn, _Transformer):
            return fn
    return once(_TRANSFORMERS, fn, lambda: _Transformer(fn))


def _key(wrt):
    return tuple(wrt) if isinstance(wrt, (tuple, list)) else wrt


def run_jvp(t, wrt, primals, tangents):
    primals = tuple(primals) if isinstance(primals, (tuple, list)) else (primals,)
    tangents = tuple(tangents) if isinstance(tangents, (tuple, list)) else (tangents,)
    gen = t.get(wrt, False, mode="forward")
    t.check(gen, primals, {})
    if len(tangents) != len(gen.seed_name):
        names = ", ".join(gen.wrt)
        one = ", ".join(f"d{w}" for w in gen.wrt) + ("," if len(gen.wrt) == 1 else "")
        raise ValueError(f"{t.fn.__name__}: {len(tangents)} tangent(s) given, but it is differentiated with "
                         f"respect to {len(gen.wrt)} parameter(s) ({names}): pass one tangent per wrt "
                         f"parameter, in a tuple: ({one}); to move along other arguments too, give them in "
                         f"wrt (wrt=(0, 1) in differentiate or jvp)")
    tangents = [as_tangent(d) for d in tangents]
    bound = t.signature.bind(*primals)
    for name, d in zip(gen.wrt, tangents):
        check_direction(t.fn.__name__, f"the tangent of `{name}`", f"`{name}`", bound.arguments.get(name), d)
    try:
        value, tangent = gen.function(*primals, **dict(zip(gen.seed_name, tangents)))
    except Exception as e:
        raise located(e)
    if isinstance(value, tuple) and isinstance(tangent, tuple) and len(value) == len(tangent):
        return value, tuple(signature.cast_like(d, v) for d, v in zip(tangent, value))
    return value, signature.cast_like(tangent, value)      # the tangent in the output's dtype


def check_direction(fname, what, of, like, d):
    """A tangent (hvp's ``v``, a cotangent) has the shape of what it is a direction of."""
    if like is None or isinstance(like, dict) or isinstance(d, dict):
        return
    try:
        want, got = np.shape(like), np.shape(d)
    except ValueError:            # a ragged list: a structure, not an array
        return
    if want != got:
        raise ValueError(f"{fname}: {what} has shape {got}, but {of} has shape {want}; give it that shape")


def as_tangent(t):
    """A tangent given as a list or tuple of numbers (``[1.0, 0.0]``) as the float array numpy
    reads it as: tangent code does arithmetic on it (``-dx``), which a list does not take."""
    if isinstance(t, (list, tuple)) and t and all(isinstance(v, (int, float, np.number)) and
                                                  not isinstance(v, (bool, np.bool_)) for v in t):
        return np.asarray(t, dtype=np.result_type(*t, 1.0))
    return t


def split_vjp(t, wrt, args, kwargs, memory_budget=None):
    """One forward sweep now; the pullback runs only the backward on what it saved."""
    pair = t.get(wrt, False, mode="split", memory_budget=memory_budget)
    t.check(pair, args, kwargs)
    try:
        value, saved = pair.forward(*args, **kwargs)
    except Exception as e:
        raise located(e)

    def pullback(cotangent=None):
        if cotangent is not None and not isinstance(value, (tuple, list, dict)):
            check_direction(t.fn.__name__, "the cotangent", "the value", value, cotangent)
        try:
            grads = pair.backward(saved, cotangent)
        except Exception as e:
            raise located(e)
        grads = _restructured(pair, t.signature, args, kwargs, False, grads)
        return (grads,) if len(pair.wrt) == 1 and not pair.single else grads   # wrt=(0,), as grad

    return value, pullback
