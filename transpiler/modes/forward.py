"""Pass 4 (forward mode): tangent code interleaved with the primal.

Each active core statement ``t = op(a, b)`` is followed by its tangent statement, built by
inlining the runtime's JVP rule for every active operand and adding the contributions::

    t = a * b
    dt = da * b + a * db

Nothing is saved and nothing runs backwards, so control flow maps one to one: an ``if``
becomes the same ``if`` with tangent statements inside each branch, and a loop (``for``,
``while``, and the loops normalize builds from ``break``/``continue``/``return``) becomes
the same loop with tangent statements in its body -- no stacks, and the code size does not
depend on the trip count.  A loop-carried name is copied in before the loop and at the
back edge; both copies get tangent copies, so its tangent is carried along with it.

The generated function takes the primal parameters plus one keyword-only tangent per
``wrt`` parameter (``dx``) and returns ``(value, tangent)``.
"""

import ast
import operator

import numpy as np

from runtime.rules.arithmetic import add_terms
from runtime.rules.refused import NoDerivative

from ..core import annotations as anno
from . import calls
from . import stacks
from ..backend import templates
from ..core.ir import comment
from ..core.astutil import variable_names as _names
from .reverse import Reverse
from .reverse_statements import keyword_argument

__all__ = ["forward", "Forward"]


class Forward:
    def __init__(self, ctx, core, info, wrt, name, tangent_only=False):
        self.ctx, self.core, self.info, self.wrt, self.name = ctx, core, info, wrt, name
        self.tangent_only = tangent_only
        self.tangents = {}
        self.last_src = None

    # --- names -------------------------------------------------------------------------
    def tan(self, name):
        if name not in self.tangents:
            self.tangents[name] = self.ctx.namer.claim("d" + name)
        return self.tangents[name]

    def load(self, name):
        return ast.Name(name, ast.Load())

    def np_call(self, attr, *args):
        return ast.Call(self.ctx.ref_attr(np, "np", attr), list(args), [])

    def active(self, name):
        return self.info.needs_adjoint(name)   # depends on wrt and reaches the output

    def zeros(self, atom):
        if isinstance(atom, ast.Constant) or (isinstance(atom, ast.Name) and atom.id in self.info.scalars):
            return ast.Constant(0.0)
        if isinstance(atom, ast.Name) and atom.id in self.indexed():   # may be a list or dict
            from runtime.rules.containers import zeros_tree
            return ast.Call(self.ctx.ref(zeros_tree, "zeros_tree"), [atom], [])
        return self.np_call("zeros_like", atom)

    def indexed(self):
        if getattr(self, "_indexed", None) is None:
            from ..analysis.containers import indexed_names
            self._indexed = indexed_names(self.core, self.info)
        return self._indexed

    def tangent_of(self, atom):
        """The tangent of an atom (or a tuple/list of atoms) as an expression."""
        if isinstance(atom, ast.Name) and self.active(atom.id):
            return self.load(self.tan(atom.id))
        if isinstance(atom, (ast.Tuple, ast.List)):
            return type(atom)([self.tangent_of(e) for e in atom.elts], ast.Load())
        return self.zeros(atom)

    # --- the function ------------------------------------------------------------------
    def run(self):
        body = [s for s in self.core.body if not isinstance(s, ast.Return)]
        out_value = self.core.body[-1].value
        stmts = self.block(body)
        is_tuple = isinstance(out_value, ast.Tuple)
        outs = out_value.elts if is_tuple else [out_value]
        touts = [self.tangent_of(o) for o in outs]
        tout = ast.Tuple(touts, ast.Load()) if is_tuple else touts[0]
        # the tangent alone when only it is wanted: what computes just the value is then dead code
        stmts.append(ast.Return(tout if self.tangent_only else ast.Tuple([out_value, tout], ast.Load())))

        import copy
        args = copy.deepcopy(self.core.args)
        for w in self.wrt:
            args.kwonlyargs.append(ast.arg(self.tan(w)))
            args.kw_defaults.append(None)
        fn = ast.FunctionDef(self.name, args, stmts, [], None)
        if "type_params" in ast.FunctionDef._fields:
            fn.type_params = []
        fn.lineno = self.core.lineno
        fn.col_offset = 0
        return ast.fix_missing_locations(fn)

    def block(self, body):
        """Primal statements of ``body``, each active one followed by its tangent."""
        out = []
        for s in body:
            if isinstance(s, ast.If):
                out.append(self.branch(s))
                continue
            if isinstance(s, (ast.For, ast.While)):
                out.append(self.loop(s))
                continue
            src = anno.get(s, "src")
            if src is not None and src is not self.last_src and isinstance(s, ast.Assign) \
                    and self.active(s.targets[0].id):
                out.append(comment(Reverse.source_of(self, src)))
                self.last_src = src
            if isinstance(s, ast.Assign) and self.active(s.targets[0].id) \
                    and self.info.ops[id(s)].kind == "call":
                out.extend(calls.forward_call(self, self.info.ops[id(s)], s))   # value and tangent
                continue
            out.append(s)
            if stacks.handles(s):
                out.extend(stacks.forward(self, s))      # tangent stacks mirror the pushes and pops
            elif isinstance(s, ast.Assign) and self.active(s.targets[0].id):
                out.extend(self.statement(s))
        return out

    def branch(self, s):
        """The same ``if`` with tangents in each branch.

        Normalize assigns every name that outlives the ``if`` in both branches (a constant,
        or None, where the user's branch does not set it), and activity is per name, so each
        branch gives such a name its tangent; names local to one branch need nothing."""
        self.last_src = None
        body = self.block(s.body)
        self.last_src = None
        orelse = self.block(s.orelse)
        self.last_src = None
        # every assignment of an active name gets its tangent, in whichever branch it is, so
        # a tangent exists exactly where its primal does: nothing to fill in (a zero for a
        # name local to one branch would read a primal that is undefined on the other path)
        new = ast.If(s.test, body or [ast.Pass()], orelse or [ast.Pass()])
        return ast.copy_location(new, s)

    def loop(self, s):
        """The same loop with tangents in its body: a carried name's tangent is carried too,
        since its initial copy before the loop and its back-edge copy both get tangents."""
        self.last_src = None
        body = self.block(s.body) or [ast.Pass()]
        self.last_src = None
        if isinstance(s, ast.For):
            new = ast.For(s.target, s.iter, body, [], None)
        else:
            new = ast.While(s.test, body, [])
        return ast.copy_location(new, s)

    def statement(self, s):
        target = s.targets[0].id
        op = self.info.ops[id(s)]
        dt = ast.Name(self.tan(target), ast.Store())
        if op.kind == "copy":
            return [ast.Assign([dt], self.tangent_of(op.args[0]))]
        if op.kind == "tuple":
            return [ast.Assign([dt], self.tangent_of(op.node))]
        if op.kind == "unknown":
            raise Reverse.unknown(self, op, s)
        if op.kind == "const" and isinstance(op.node, ast.Constant) and op.node.value is None:
            return [ast.Assign([dt], ast.Constant(None))]   # a name not set yet on this path
        if op.kind != "prim":
            return [ast.Assign([dt], self.zeros(self.load(target)))]
        if getattr(op.fn, "linear_in", None):
            return [ast.Assign([dt], self.linear(op))]
        return self.primitive(op, s, dt)

    def linear(self, op):
        """A primitive linear in its differentiable arguments (setitem, append_at): the same call
        on their tangents, so containers keep their structure (zeros for inactive ones)."""
        from runtime.rules.containers import zeros_tree
        args = []
        for i, a in enumerate(op.args):
            if i in op.fn.linear_in and not any(self.active(n) for n in _names(a)):
                a = ast.Call(self.ctx.ref(zeros_tree, "zeros_tree"), [a], [])
            elif i in op.fn.linear_in:
                a = self.tangent_of(a)
            args.append(a)
        return ast.Call(op.node.func, args, [])

    def primitive(self, op, s, dt):
        rule = op.rule
        ans = self.load(s.targets[0].id)
        index_params = ()
        args = list(op.args)
        if op.fn is operator.getitem:
            params = list(templates.template(rule.jvp(0)).signature.parameters)
            index_params = tuple(params[3:4])
        pre, terms = [], []
        # an elementwise op whose every variable operand is active: the sum of the terms
        # already broadcasts to the result's shape, so no broadcast_like is needed
        every = isinstance(rule.fn, np.ufunc) and all(
            isinstance(a, ast.Constant) or (isinstance(a, ast.Name) and self.active(a.id)) for a in args)
        # keywords carrying a tangent, by the position their rule gives them (np.average(a, weights=w))
        given = list(enumerate(args)) + [(keyword_argument(self.ctx, op, key, self.active, pre), v)
                                         for key, v in op.kwargs.items()]
        for i, a in given:
            if i is None or not any(self.active(n) for n in _names(a)):
                continue
            if op.fn is operator.getitem and i > 0:
                continue
            if isinstance(rule.jvp(i), NoDerivative):
                raise self.ctx.error(rule.jvp(i).message, op.node, rule.jvp(i).hint)
            if rule.jvp(i) is None:
                if rule.vjp(i) is not None:      # differentiable, but only in reverse mode
                    raise self.ctx.error(
                        f"{rule.name} has a reverse-mode rule (VJP) for argument {i} but no forward-mode "
                        "rule (JVP)", op.node,
                        f"add one: runtime.rules.define({rule.name}, vjp=(...), jvp=(...)), or use reverse mode")
                continue
            drop = i < len(args) and Reverse.same_shape(self, rule, args, i) or every
            stmts, expr = templates.instantiate(rule.jvp(i), self.ctx, self.tangent_of(a), ans, args,
                                                op.kwargs, drop_unbroadcast=drop,
                                                index_params=index_params)
            if isinstance(expr, ast.Constant) and expr.value is None:
                continue
            pre.extend(stmts)
            terms.append(expr)
        if not terms:
            return pre + [ast.Assign([dt], self.zeros(ans))]
        checked = None
        if len(terms) > 1 and not _own_rules(rule, len(args)):
            checked = (self.ctx.ref(add_terms, "add_terms"), ast.Constant(rule.name))
        return pre + [ast.Assign([dt], _sum_terms(terms, checked))]


def _sum_terms(terms, checked=None):
    """The tangent of a primitive: the sum of its arguments' JVP terms.  A tuple-valued primitive
    (np.divmod, np.linalg.lstsq, ...) has tuple terms, added item by item -- `+` on two tuples
    would concatenate them.  ``checked``: ``(add_terms, name)`` for a primitive whose rules were
    registered outside this package (test_rules_transpiled checks the package's own): its terms
    are added by ``add_terms``, item by item also when a rule returns its tuple through a call."""
    if len(terms) > 1 and any(isinstance(t, ast.Tuple) for t in terms):
        if not all(isinstance(t, ast.Tuple) and len(t.elts) == len(terms[0].elts) for t in terms):
            raise TypeError("JVP rules of one tuple-valued primitive must all return tuple literals "
                            "of the same length")
        return ast.Tuple([_sum_terms(list(items)) for items in zip(*(t.elts for t in terms))], ast.Load())
    total = terms[0]
    for t in terms[1:]:
        total = ast.Call(checked[0], [total, t, checked[1]], []) if checked else ast.BinOp(total, ast.Add(), t)
    return total


def _own_rules(rule, nargs):
    """Are ``rule``'s JVP functions this package's own (whose tuple-valued rules are tested)?"""
    return all((getattr(rule.jvp(i), "__module__", None) or "").startswith(("runtime.", "transpiler."))
               for i in range(nargs) if rule.jvp(i) is not None)


def forward(ctx, core, info, wrt, name, tangent_only=False):
    """The tangent FunctionDef ``name(params..., *, dx...)`` returning ``(value, tangent)``
    (the tangent alone with ``tangent_only``)."""
    return Forward(ctx, core, info, wrt, name, tangent_only).run()
