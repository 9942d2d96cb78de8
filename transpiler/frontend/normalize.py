"""Pass 2: desugar a function body into the core IR (its contract: core/ir.py).

Every reassigned user name gets a fresh version (SSA), so the adjoint can read every
intermediate value without saving anything.  Calls are annotated with the resolved callable
(annotation ``prim``, core/annotations.py); each statement remembers the user's statement it
came from (``src``).

Each Python construct is lowered in one place:

* before normalizing: scipy's callables as what adjoin differentiates (calls/scipy_calls.py), everyday
  builtins, literals, ``:=``, named lambdas, ``del`` (desugar.py),
  ``with``/``try`` (control/blocks.py), ``break``/``continue``/early ``return``
  (control/jumps.py);
* statements.py: assignments, ``if``, ``return``, expression statements, ``assert``, refusals;
* control/loops.py: ``for`` and ``while``;
* expressions.py: operators, comparisons, ``and``/``or``, conditional expressions,
  attributes, subscripts, tuple and list literals;
* calls/sites.py: calls and array methods;
* containers/writes.py: writes into arrays and containers, comprehensions, dict literals;
* calls/nested.py: nested functions and lambdas; gradient_stacks.py: a generated gradient's stacks;
* after normalizing: ``tf.*`` calls as the numpy primitives they are (the bridge's tf_calls.py,
  through the hook core/callables.rewrite_tf_calls).

emitter.py holds the state they share (versions, emitted statements).
"""

import ast
import copy

from ..core import annotations as anno
from ..core.callables import rewrite_tf_calls
from . import gradient_stacks
from .containers.sequence_operators import sequence_operators
from .effects.pruning import prune_checks
from . import desugar
from .control import blocks, iterables
from .calls import scipy_calls
from .calls.sites import ARRAY_METHODS, CallSites
from .emitter import Emitter, is_atom
from .expressions import Expressions
from .control.loops import Loops
from .control.jumps import Restructure
from .statements import Statements
from .source import scopes

__all__ = ["normalize", "Normalizer", "ARRAY_METHODS", "is_atom"]


class Normalizer(Statements, Loops, Expressions, CallSites, Emitter):
    """One function's normalization: each Python construct is lowered by one mixin."""

    def run(self):
        fn = self.parsed.node
        a = fn.args
        if a.vararg or a.kwarg:
            # allowed for the primal, but their names are ordinary locals
            for extra in (a.vararg, a.kwarg):
                if extra is not None:
                    self.ctx.namer.taken.add(extra.arg)
                    self.version[extra.arg] = extra.arg
                    self.first_stored.add(extra.arg)
        for arg in a.posonlyargs + a.args + a.kwonlyargs:
            self.ctx.namer.taken.add(arg.arg)
            self.version[arg.arg] = arg.arg
            self.first_stored.add(arg.arg)     # an inlined callee's `x` must not reuse the name
        self.parameters = {arg.arg for arg in a.posonlyargs + a.args + a.kwonlyargs}
        self.unbound = scopes.local_names(fn) - scopes.parameters(fn)
        body = list(fn.body)
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            body = body[1:]
        self.ctx.handlers = []
        if iterables.is_generator(fn):          # differentiated as the list of what it yields
            body = iterables.as_list_body(body, self.ctx.namer, fn)
        body = scipy_calls.rewrite(body, self.ctx)
        body = desugar.rewrite(body, self.ctx)
        body = blocks.desugar_blocks(body, self.ctx.namer, self.ctx.handlers)
        self.fn_body = body = Restructure(self.ctx.namer).function_body(body, fn)
        returned = False
        for stmt in body:
            self.src = stmt
            self.statement(stmt)
            if isinstance(stmt, ast.Return):
                returned = True
                break
        if not returned:
            raise self.error(f"{fn.name}() has no return statement at its end, so it returns None",
                             fn, "return the value to differentiate as the function's last statement")
        new = ast.FunctionDef(fn.name, self.bound_defaults(fn.args), self.out, [], None)
        if hasattr(ast.FunctionDef, "type_params") or "type_params" in ast.FunctionDef._fields:
            new.type_params = []
        ast.copy_location(new, fn)
        anno.put(new, "stack_methods", self.stack_methods)
        gradient_stacks.check_uses(self, new)
        return new


    def bound_defaults(self, args):
        """``args`` with each default as the object the ``def`` bound, not its source text again
        (``def f(a, _r=r)`` in a loop: ``r`` is gone, or another value, by the time f runs)."""
        fn = getattr(self.parsed.fn, "__func__", self.parsed.fn)
        values = getattr(fn, "__defaults__", None) or ()
        kw = getattr(fn, "__kwdefaults__", None) or {}
        if len(values) != len(args.defaults):
            return args          # a specialised signature (source/star_args.py) keeps its own defaults
        args = copy.copy(args)

        def ref(node, value, name):
            if isinstance(node, ast.Constant) and node.value is value:
                return node
            if value is None or isinstance(value, (bool, int, float, complex, str)):
                return ast.copy_location(ast.Constant(value), node)
            return ast.copy_location(self.ctx.ref(value, f"{name}_default"), node)

        params = (args.posonlyargs + args.args)[len(args.posonlyargs + args.args) - len(values):]
        args.defaults = [ref(d, v, p.arg) for d, v, p in zip(args.defaults, values, params)]
        args.kw_defaults = [d if d is None or p.arg not in kw else ref(d, kw[p.arg], p.arg)
                            for d, p in zip(args.kw_defaults, args.kwonlyargs)]
        return args


def normalize(ctx):
    """The user's function (``ctx.parsed.node``) in core form, as a new FunctionDef
    (``tf.*`` calls already written as the numpy primitives they are: bridge/tf_calls.py)."""
    core = sequence_operators(prune_checks(Normalizer(ctx).run()), ctx)
    return rewrite_tf_calls(core, ctx)
