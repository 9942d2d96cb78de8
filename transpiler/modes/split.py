"""The split pair: a forward that saves and a backward that uses what was saved.

One reverse pass, two functions::

    def fwd_f(x, w):              # the primal sweep (with its stack pushes)
        ...
        return out, (t1, t2)      # the value, and exactly the locals the adjoint reads
    def bwd_f(saved, bout=1.0):   # the adjoint sweep
        t1, t2 = saved
        ...
        return bx                 # a tuple for a tuple ``wrt``

``vjp`` runs ``fwd`` once and keeps ``saved`` for its pullback, so the primal is never
re-run; calls to user functions (calls.py, callees.py) nest these pairs, and the nested ``saved``
tuples are the call stack of a recursion.  The backward is built and optimized first:
the names it still reads after optimization decide what the forward returns.
"""

import ast
import copy

from . import callees
from ..analysis.activity import analyze
from ..analysis.signature import split_arrays
from .callees import callee_sources
from ..backend.codegen import compile_function, free_names, module_source, to_source
from ..core.context import Context
from ..core.ir import output_names
from ..frontend.normalize import normalize
from ..backend.optimize import optimize
from ..frontend.source.parsing import parse_function, wrt_names
from .reverse import Reverse, function_def

__all__ = ["Split", "transform_split"]


class Split:
    """A generated pair: ``forward(*args) -> (value, saved)``, ``backward(saved, seed) -> grads``."""

    def __init__(self, ctx, stages, nodes, codes, functions, wrt, single, note):
        self.ctx, self.stages, self.nodes, self.codes = ctx, stages, nodes, codes
        self.forward, self.backward = functions
        self.wrt, self.single = wrt, single
        self.forward_node, self.backward_node = nodes
        self.own_source = module_source(nodes, "\n\n".join(c.rstrip("\n") for c in codes) + "\n", ctx, note)

    @property
    def source(self):
        """Both functions, then the generated code of the user functions they call."""
        return self.own_source + "".join("\n\n" + part + "\n" for part in callee_sources(self.ctx))

    def __repr__(self):
        return f"<split pair {self.forward_node.name}/{self.backward_node.name} wrt={self.wrt}>"


def _loads(tree):
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _stores(stmts):
    return {n.id for s in stmts for n in ast.walk(s) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def _exposed(stmts, defined):
    """Names ``stmts`` may read before assigning them (the backward's inputs from ``saved``).

    ``defined`` grows with what is surely assigned; a loop body may run zero times and only
    one branch of an ``if`` runs, so neither adds to it."""
    out = set()
    for s in stmts:
        if isinstance(s, ast.For):
            out |= _loads(s.iter) - defined
            out |= _exposed(s.body, defined | _stores([s.target]))
        elif isinstance(s, ast.While):
            out |= _loads(s.test) - defined
            out |= _exposed(s.body, set(defined))
        elif isinstance(s, ast.If):
            out |= _loads(s.test) - defined
            body, orelse = set(defined), set(defined)
            out |= _exposed(s.body, body) | _exposed(s.orelse, orelse)
            defined |= body & orelse
        elif isinstance(s, ast.Assign):
            out |= _loads(s.value) - defined
            defined |= _stores(s.targets)
        else:
            out |= _loads(s) - defined
    return out


def _params(args):
    names = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
    names += [a.arg for a in (args.vararg, args.kwarg) if a is not None]
    return names


def transform_split(fn, wrt=0, note=None, memory_budget=None, floats=()):
    """Generate the split pair of ``fn`` with respect to ``wrt``.  Raises TranspileError or Unresolved.

    ``floats``: the specialisation (``analysis/signature.py``) of the pair, as for ``transform``;
    only the ndim of each argument is used (``backend/shapes.py``)."""
    parsed = parse_function(fn)
    names, single = wrt_names(parsed.node, wrt)
    ctx = Context(parsed)
    ctx.memory_budget = memory_budget        # callees are generated with the same budget
    ctx.arrays = split_arrays(floats)
    core = normalize(ctx)
    info = analyze(core, names, output_names(core))
    fname = ctx.namer.claim(f"fwd_{callees.label(fn)}")
    bname = ctx.namer.claim(f"bwd_{callees.label(fn)}")
    seed = ctx.namer.claim("bout")
    saved = ctx.namer.claim("saved")
    for role, name in (("forward", fname), ("backward", bname)):
        ctx.by_id[id(callees.proxy(parsed.fn, names, role, memory_budget))] = name   # recursion calls itself by name
    rev = Reverse(ctx, core, info, names, False, bname, seed)
    rev.memory_budget = memory_budget
    rev.repeatable = True          # a pullback may run again: checkpointed loops keep their snapshots
    sw = rev.sweeps()
    sw.adjoint = copy.deepcopy(sw.adjoint)      # the sweeps share nodes (an `if`'s test): the
    sw.primal = copy.deepcopy(sw.primal)        # two functions are optimized separately
    sw.seed_init = copy.deepcopy(sw.seed_init)

    # the backward first: what it reads after optimization is what the forward saves
    pre = []
    if rev.stack is not None:
        # pop from a copy, so the pullback can run again on the same saved values
        copied = ast.Call(ast.Name("list", ast.Load()), [ast.Name(rev.stack, ast.Load())], [])
        pre.append(ast.Assign([ast.Name(rev.pop, ast.Store())], ast.Attribute(copied, "pop", ast.Load())))
    bargs = ast.arguments([], [ast.arg(saved), ast.arg(seed)], None, [], [], None, [sw.seed_default])
    bwd = function_def(bname, bargs, pre + sw.seed_init + sw.adjoint + [ast.Return(sw.result)], core.lineno)
    stages = {"parsed": parsed.node, "normalized": core, "backward": copy.deepcopy(bwd)}
    ctx.shapes_from = sw.primal     # the backward reads the primal's values: their shapes
    bwd = optimize(bwd, ctx)
    ctx.shapes_from = ()
    available = (_stores(sw.primal) | set(_params(core.args))) - {getattr(rev, "pop", None), getattr(rev, "push", None)}
    kept = sorted(_exposed(bwd.body, {saved, seed}) & available)
    if kept:
        target = ast.Tuple([ast.Name(n, ast.Store()) for n in kept], ast.Store())
        bwd.body.insert(0, ast.fix_missing_locations(
            ast.copy_location(ast.Assign([target], ast.Name(saved, ast.Load())), bwd)))

    # a value saved from one branch of an `if` (or a loop that may not run) starts as None
    surely = set(_params(core.args))
    _exposed(sw.primal, surely)
    unset = [ast.Assign([ast.Name(n, ast.Store())], ast.Constant(None)) for n in kept if n not in surely]
    out = ast.Tuple([copy.deepcopy(sw.out_value), ast.Tuple([ast.Name(n, ast.Load()) for n in kept], ast.Load())], ast.Load())
    fwd = function_def(fname, copy.deepcopy(core.args), unset + sw.primal + [ast.Return(out)], core.lineno)
    stages["forward"] = copy.deepcopy(fwd)
    fwd = optimize(fwd, ctx)
    stages["optimized"] = (fwd, bwd)
    used = set(free_names(fwd)) | set(free_names(bwd))
    ctx.injected = {k: v for k, v in ctx.injected.items() if k in used}
    codes = [to_source(fwd), to_source(bwd)]
    functions = [compile_function(node, code, ctx) for node, code in zip((fwd, bwd), codes)]
    split = Split(ctx, stages, (fwd, bwd), codes, functions, names, single, note)
    split.saves_stack = rev.stack in kept      # read again as again.recompute_pair
    return split
