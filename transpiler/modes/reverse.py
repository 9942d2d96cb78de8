"""Pass 4: reverse mode -- a primal sweep followed by an adjoint sweep.

The primal sweep is the core function body itself (it is in SSA form, so every value the
adjoint reads is still there: nothing has to be saved in straight-line code).  The
adjoint sweep visits active, useful statements last-to-first and inlines the runtime's VJP
rule for each active operand.  The first contribution to an adjoint assigns it, later ones
add to it (``bx = bx + ...``, never in place, since arrays may alias).  ``if`` statements
(from conditional expressions) replay the branch that ran.

Loops push what the adjoint reads onto stacks (reverse_control.py, with branches); the
adjoint of each assignment is reverse_statements.py's, and calls to user functions become
calls to the callee's own forward/adjoint pair (calls.py).
"""

import ast
import operator
import types

import numpy as np

from runtime.rules.inplace import add_at
from runtime.rules.support import scatter_add

from ..core import annotations as anno
from ..analysis import reuse
from ..core.astutil import fix_locations
from ..core.ir import walk_assigns
from . import calls
from . import stacks
from .reverse_control import ControlFlow, _copy_args
from .reverse_statements import StatementAdjoints

__all__ = ["reverse"]


class Reverse(ControlFlow, StatementAdjoints):
    """One reverse pass: ``run`` (a gradient function) or ``sweeps`` (split.py's pair)."""

    def __init__(self, ctx, core, info, wrt, preserve_result, name, seed_name):
        self.ctx, self.core, self.info = ctx, core, info
        self.wrt, self.preserve, self.name, self.seed = wrt, preserve_result, name, seed_name
        self.adjoints = {}
        self.last_src = None
        self.here = None          # (reuse.Available of the block, index of the statement)
        self._resolve = None
        self.located = True

    def adj(self, name):
        if name not in self.adjoints:
            self.adjoints[name] = self.ctx.namer.claim("b" + name)
        return self.adjoints[name]

    def load(self, name):
        return ast.Name(name, ast.Load())

    # --- contributions -----------------------------------------------------------------
    def contribute(self, out, has, name, expr):
        b = self.adj(name)
        if name in has and self.is_scatter(expr):
            # bx + scatter_add(g, x, i) as add_at(bx, g, x, i): in place when bx is private
            expr = ast.Call(self.ctx.ref(add_at, "add_at"), [self.load(b)] + expr.args, [])
        elif name in has:
            expr = ast.BinOp(self.load(b), ast.Add(), expr)
        has.add(name)
        out.append(ast.Assign([ast.Name(b, ast.Store())], expr))

    def resolve(self, func):
        """The object a function expression of the generated code stands for (or None)."""
        if self._resolve is None:
            self._resolve = self.ctx.resolve
        return self._resolve(func)

    def is_scatter(self, expr):
        return isinstance(expr, ast.Call) and len(expr.args) == 3 and not expr.keywords \
            and self.resolve(expr.func) is scatter_add

    def np_call(self, attr, *args):
        return ast.Call(self.ctx.ref_attr(np, "np", attr), list(args), [])

    def _ones_like(self, out):
        """The default seed of one output; a nested tuple gets a tuple of them."""
        if isinstance(out, ast.Tuple):
            return ast.Tuple([self._ones_like(o) for o in out.elts], ast.Load())
        if not (isinstance(out, ast.Name) and self._may_hold_container(out.id, set())):
            return self.np_call("ones_like", out)
        from runtime.rules.containers import ones_tree     # a (ragged) list or a dict: ones in its shape
        return ast.Call(self.ctx.ref(ones_tree, "ones_tree"), [out], [])

    def _may_hold_container(self, name, seen):
        """May ``name`` hold a list, tuple or dict (as a returned value: np.ones_like needs one
        array shape)?  Yes when it is indexed or built as one, or comes from a call or an op the
        analysis does not know; copies are followed."""
        if name in seen:
            return False
        seen.add(name)
        if name in self.indexed():
            return True
        for s in walk_assigns(self.core.body):
            if s.targets[0].id != name:
                continue
            op = self.info.ops[id(s)]
            if op.kind == "copy":
                if isinstance(op.args[0], ast.Name) and self._may_hold_container(op.args[0].id, seen):
                    return True
            elif op.kind in ("tuple", "call", "unknown", "pop") or op.kind in ("prim", "nondiff") and \
                    (getattr(op.fn, "__module__", None) or "").startswith(("runtime.rules.containers", "builtins")):
                return True
            elif op.fn in (operator.add, operator.mul) and any(    # `l + m`, `l * 2` on lists
                    isinstance(a, ast.Name) and self._may_hold_container(a.id, seen) for a in op.args):
                return True
        return False

    def _output_seeds(self, out, seed):
        """(output name, its seed expression) pairs; nested tuples (a generated forward's
        ``return out, (saved...)``, differentiated again) are seeded item by item."""
        if isinstance(out, ast.Name):
            return [(out, seed)]
        if not isinstance(out, ast.Tuple):
            return []
        return [pair for i, o in enumerate(out.elts)
                for pair in self._output_seeds(o, ast.Subscript(seed, ast.Constant(i), ast.Load()))]

    # --- the sweep ---------------------------------------------------------------------
    def run(self):
        sw = self.sweeps()
        result = sw.result
        keep = []
        if self.preserve:
            out_value = sw.out_value
            if any(isinstance(n, ast.For) for st in sw.adjoint for n in ast.walk(st)):
                # adjoint loops rebind loop variables and pop old values: keep the value first
                kept = self.ctx.namer.claim("value")
                keep.append(ast.Assign([ast.Name(kept, ast.Store())], out_value))
                out_value = self.load(kept)
            result = ast.Tuple([result, out_value], ast.Load())
        stmts = sw.primal + sw.seed_init + keep + sw.adjoint + [ast.Return(result)]
        args = _copy_args(self.core.args)
        seed_arg = ast.arg(self.seed)
        if args.vararg is not None:
            args.kwonlyargs.append(seed_arg)
            args.kw_defaults.append(sw.seed_default)
        else:
            args.args.append(seed_arg)
            args.defaults.append(sw.seed_default)
        return function_def(self.name, args, stmts, self.core.lineno, self.located)

    def sweeps(self):
        """The two sweeps as separate statement lists (``run`` joins them; split.py does not).

        Returns a namespace: primal (with the stack set-up), seed_init (defaults the seed
        from the output), adjoint, result (the gradient expression), out_value, seed_default.
        """
        body = [s for s in self.core.body if not isinstance(s, ast.Return)]
        ret = self.core.body[-1]
        out_value = ret.value
        info = self.info
        is_tuple = isinstance(out_value, ast.Tuple)
        outs = out_value.elts if is_tuple else [out_value]

        seed_init = []
        # the output as a variable (constants and tuples are returned as written)
        seed_default = ast.Constant(None)
        scalar_out = not is_tuple and (
            (isinstance(out_value, ast.Name) and out_value.id in info.scalars)
            or (isinstance(out_value, ast.Constant) and isinstance(out_value.value, (int, float))))
        if scalar_out:
            seed_default = ast.Constant(1.0)
        else:
            ones = [self._ones_like(o) for o in outs]
            init = ast.Tuple(ones, ast.Load()) if is_tuple else ones[0]
            seed = ast.IfExp(ast.Compare(self.load(self.seed), [ast.Is()], [ast.Constant(None)]),
                             init, self.load(self.seed))
            seed_init.append(ast.Assign([ast.Name(self.seed, ast.Store())], seed))

        adjoint = []
        has = set()
        for o, g in self._output_seeds(out_value, self.load(self.seed)):
            if info.needs_adjoint(o.id):
                self.contribute(adjoint, has, o.id, g)
        self.stack = None
        primal = self.sweep(body, adjoint, has)
        if self.stack is not None:
            # values the adjoint reads that loops overwrite: pushed in the primal, popped in reverse
            primal[0:0] = [
                ast.Assign([ast.Name(self.stack, ast.Store())], ast.List([], ast.Load())),
                ast.Assign([ast.Name(self.push, ast.Store())],
                           ast.Attribute(self.load(self.stack), "append", ast.Load())),
                ast.Assign([ast.Name(self.pop, ast.Store())], ast.Attribute(self.load(self.stack), "pop", ast.Load()))]
        adjoint[0:0] = stacks.adjoint_prelude(self)

        adjoint.extend(calls.parameter_seeds(self, has))     # bsaved = item_seed(saved, ...)
        grads = []
        for w in self.wrt:
            if w in has:
                grads.append(self.load(self.adj(w)))
            else:
                grads.append(calls.zero_parameter(self, w) or self.np_call("zeros_like", self.load(w)))
        result = grads[0] if len(grads) == 1 else ast.Tuple(grads, ast.Load())
        return types.SimpleNamespace(primal=primal, seed_init=seed_init, adjoint=adjoint, result=result,
                                     out_value=out_value, seed_default=seed_default)

    def sweep(self, body, out, has, in_loop=False):
        """Adjoint statements for ``body`` (visited last to first), appended to ``out``.

        Returns the primal statements for ``body``: the same statements, with loops and
        branches inside loops extended by what they save for the adjoint.
        """
        primal = []
        available = reuse.Available(body)
        for at in range(len(body) - 1, -1, -1):
            s = body[at]
            if isinstance(s, ast.If):
                primal.append(self.branch(s, out, has, in_loop))
            elif isinstance(s, (ast.For, ast.While)):
                primal.extend(reversed(self.loop(s, out, has)))
            else:
                if isinstance(s, ast.Assign):
                    self.here = (available, at)      # primal values its adjoint may reuse
                    self.statement(s, out, has)
                elif stacks.push_parts(s) is not None:
                    stacks.push_adjoint(self, s, out, has)
                primal.extend(anno.get(s, "primal") or [s])   # a call: its split forward
        primal.reverse()
        return primal

    # --- zeros -------------------------------------------------------------------------
    def zero(self, name):
        if name in self.info.scalars:
            return ast.Constant(0.0)
        if name in self.indexed():       # may be a list or dict: its zero cotangent is an empty Grads
            from runtime.rules.containers import zero_grad
            return ast.Call(self.ctx.ref(zero_grad, "zero_grad"), [self.load(name)], [])
        return self.np_call("zeros_like", self.load(name))

    def indexed(self):
        if getattr(self, "_indexed", None) is None:
            from ..analysis.containers import indexed_names
            self._indexed = indexed_names(self.core, self.info)
        return self._indexed


def function_def(name, args, body, lineno, located=True):
    """A FunctionDef (``type_params`` on Python 3.12+), located unless ``located`` is false."""
    fn = ast.FunctionDef(name, args, body, [], None)
    if "type_params" in ast.FunctionDef._fields:
        fn.type_params = []
    fn.lineno = lineno
    fn.col_offset = 0
    return fix_locations(fn) if located else fn


def reverse(ctx, core, info, wrt, preserve_result, name, seed_name, memory_budget=None, located=True):
    """The gradient FunctionDef ``name(params..., seed_name=...)`` for core function ``core``;
    with ``memory_budget`` (bytes), loops are checkpointed (checkpoint.py).  ``located=False``
    leaves the generated nodes' locations unset, for a caller that optimizes the function
    next (optimize sets them at its end; a walk over the whole function saved)."""
    rev = Reverse(ctx, core, info, wrt, preserve_result, name, seed_name)
    rev.memory_budget = memory_budget
    rev.located = located
    return rev.run()

