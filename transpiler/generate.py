"""Generation: ``transform`` runs the passes on one function and ``Generated`` keeps the result.

The passes run in order (parse -> normalize -> analyze -> reverse or forward -> optimize ->
codegen), and every intermediate AST stays on the result so each stage can be printed.
"""

import ast
import gc
import warnings
import weakref

from .analysis import signature
from .frontend.control import blocks
from .analysis.activity import analyze, range_targets
from .analysis.zeros import structural_zeros
from .modes.callees import callee_sources
from .backend.codegen import compile_function, free_names, module_source, to_source
from .core.context import Context
from .core.errors import ZeroGradientWarning
from .core.ir import output_names, walk_assigns
from .modes.forward import forward
from .frontend.normalize import normalize
from .backend.optimize import optimize
from .frontend.source.parsing import parse_function, weakly, wrt_names
from .modes.reverse import reverse
from .modes import floats as _floats
from .core.astutil import copy_ast
from .core.stages import Later, Stages
from .relocate import raised_at, user_level

__all__ = ["transform", "Generated"]


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
    Raises TranspileError or Unresolved.

    The cyclic garbage collector is paused for the outermost call (callees' transforms run
    inside it): the passes allocate many AST nodes that all stay alive, so every collection
    would scan a growing heap for nothing, a cost that grew faster than the function."""
    if not gc.isenabled():
        return _transform(fn, wrt, preserve_result, note, mode, floats, optimized, memory_budget)
    gc.disable()
    try:
        return _transform(fn, wrt, preserve_result, note, mode, floats, optimized, memory_budget)
    finally:
        gc.enable()


def _transform(fn, wrt, preserve_result, note, mode, floats, optimized, memory_budget):
    parsed = parse_function(fn)
    names, single = wrt_names(parsed.node, wrt)
    ctx = Context(parsed)
    ctx.memory_budget = memory_budget        # callees are generated with the same budget
    ctx.arrays = signature.split_arrays(floats)      # ndim of each argument: backend/shapes.py, frontend/containers/sequence_operators.py
    core = normalize(ctx)
    outputs = output_names(core)
    pyfloats, elements = signature.split_floats(floats)
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
        rev = reverse(ctx, core, info, names, preserve_result, name, seed, memory_budget, located=not optimized)
        ctx.scalar_seed = seed if _number_default(rev.args, seed) else None   # backend/shapes.py
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
    name_nodes = [] if optimized else None          # found by optimize's last walk
    opt = optimize(rev, ctx, name_nodes) if optimized else rev
    stages["optimized"] = opt
    free = free_names(opt, name_nodes)
    used = set(free)
    ctx.injected = {k: v for k, v in ctx.injected.items() if k in used}
    code = to_source(opt)
    function = blocks.guard(compile_function(opt, code, ctx, free), ctx, raised_at)
    gen = Generated(ctx, stages, opt, code, function, seed, names, single, note)
    gen.specialised = specialised
    gen.scalar_seed = bool(ctx.scalar_seed)
    return gen


def _number_default(args, name):
    """Is parameter ``name``'s default a number?  The seed of a 0-d output defaults to 1.0, and a
    variant may then take it to be a real 0-d value (callers route other seeds to the general
    variant: variants.py)."""
    params = args.posonlyargs + args.args
    defaults = dict(zip([p.arg for p in params][len(params) - len(args.defaults):], args.defaults))
    defaults.update({p.arg: d for p, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None})
    d = defaults.get(name)
    return isinstance(d, ast.Constant) and type(d.value) in (int, float)


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
            warnings.warn(ZeroGradientWarning(message), stacklevel=user_level())
