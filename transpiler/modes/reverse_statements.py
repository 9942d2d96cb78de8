"""The adjoint of one core assignment: a copy, a primitive (its rule's VJP templates inlined),
a tuple or list literal, a call to a user function (calls.py), a stack pop (stacks.py); and
the errors for what has no derivative.  The forward pass reuses ``unknown``, ``same_shape``
and ``source_of``.
"""

import ast
import operator
import types

import numpy as np

from runtime.rules.registry import add_rule_hint as _add_rule_hint, method_hint as _method_hint

from runtime.rules.containers import setitem
from runtime.rules.refused import NoDerivative

from ..core import annotations as anno
from ..backend import templates
from ..core.ir import comment
from ..core.astutil import copy_ast
from ..frontend.containers.writes import SET_OF_VALUES
from . import calls
from . import stacks

__all__ = ["StatementAdjoints"]


class StatementAdjoints:
    """Mixin of Reverse: ``statement`` appends the adjoint of one assignment."""

    def statement(self, s, out, has):
        if stacks.popped_from(s) is not None:
            return stacks.pop_adjoint(self, s, out, has)
        target = s.targets[0].id
        if not self.info.needs_adjoint(target) or target not in has:
            return
        op = self.info.ops[id(s)]
        g = self.load(self.adj(target))
        block = []
        if op.kind == "copy":
            self.contribute(block, has, op.args[0].id, g)
        elif op.kind == "unknown":
            raise self.unknown(op, s)
        elif op.kind == "call":
            calls.reverse_call(self, op, s, g, block, has)
        elif calls.tuple_item(self, op, s, g, block, has):
            pass
        elif op.kind == "prim":
            self.primitive(op, s, g, block, has)
        elif op.kind == "tuple":
            self.elements(op, g, block, has)
        has.discard(target)      # the value is overwritten here: its adjoint starts again
        if block:
            src = anno.get(s, "src")
            if src is not None and src is not self.last_src:
                out.append(comment("grad of: " + self.source_of(src)))
                self.last_src = src
            out.extend(block)

    def elements(self, op, g, block, has):
        """A tuple/list literal: element j gets slot j of the cotangent (a Grads, tuple or array)."""
        from runtime.rules.containers import slot
        for j, e in enumerate(op.args):
            if isinstance(e, ast.Name) and self.info.needs_adjoint(e.id):
                self.contribute(block, has, e.id, ast.Call(self.ctx.ref(slot, "slot"), [g, ast.Constant(j), e], []))

    def source_of(self, src):
        """The user's statement for a comment; compound statements by their header line."""
        if isinstance(src, (ast.If, ast.For, ast.While)):
            line = self.ctx.parsed.line(src.lineno).strip()
            return line if line.endswith(":") else self.ctx.parsed.segment(src)
        return self.ctx.parsed.segment(src)

    def unknown(self, op, s):
        node = op.node
        if isinstance(node, ast.Set) or isinstance(node, ast.Call) and op.fn in (set, frozenset):
            return self.ctx.error(*SET_OF_VALUES[:1], node, SET_OF_VALUES[1])
        if isinstance(node, ast.Call) and any(isinstance(a, ast.Starred) for a in node.args):
            return self.ctx.error("this call carries a derivative and has a value splatted into it (`*v`) whose "
                                  "length is known only when the code runs, so adjoin cannot tell each argument's "
                                  "place", node, "pass the items one by one (`f(a, v[0], v[1])`), or a tuple "
                                  "written out (`t = (a, b); f(*t)`)")
        if isinstance(node, ast.Call):
            fn = op.fn
            if fn is None:
                meth = anno.get(node, "method", "?")
                return self.ctx.error(f"the method `.{meth}()` has no derivative rule", node, _method_hint(meth))
            user = isinstance(fn, types.FunctionType) and not fn.__module__.startswith(("numpy", "runtime"))
            name = fn.__qualname__ if user else _qualname(fn)
            if user:
                return self.ctx.error(
                    f"calling the user function {name}() with a differentiable argument is not "
                    "supported yet", node,
                    f"inline {name}'s body here for now, or make it a primitive: "
                    f"runtime.rules.define({name}, vjp=(...,)) with one VJP rule per argument")
            try:
                hint = _BUILTIN_HINTS.get(fn)
            except TypeError:           # not hashable: not one of them
                hint = None
            return self.ctx.error(f"{name} has no derivative rule", node, hint or _add_rule_hint(fn))
        if isinstance(node, ast.Attribute):
            return self.ctx.error(f"reading the attribute `.{node.attr}` of a differentiable value is "
                                  "not supported", node, "for an array, call the numpy function instead "
                                  "(np.real(x), np.transpose(x)); for an object, keep the parts you need "
                                  "in local variables")
        if isinstance(node, (ast.BinOp, ast.UnaryOp)):
            return self.ctx.error(f"the operator {_qualname(op.fn)} has no derivative rule", node,
                                  _add_rule_hint(op.fn))
        return self.ctx.error(f"this {type(node).__name__} expression cannot be differentiated", node,
                              "compute it outside the differentiated function")

    def primitive(self, op, s, g, block, has):
        info = self.info
        rule = op.rule
        ans = s.targets[0]
        index_params = ()
        args = list(op.args)
        if op.fn is operator.getitem:
            params = list(templates.template(rule.vjp(0)).signature.parameters)
            index_params = tuple(params[3:4])
        order = list(range(len(args)))
        if op.fn is setitem:       # the value's part first: x's part then overwrites g in place
            order = sorted(order, key=lambda i: i != 2)
        # keywords carrying a gradient, by the position their rule gives them (np.average(a, weights=w))
        order += [(keyword_argument(self.ctx, op, key, lambda n: n in info.active, block), key) for key in op.kwargs]
        for i in order:
            i, a = (i, args[i]) if isinstance(i, int) else (i[0], op.kwargs[i[1]])
            names = [n for n in _names(a) if n in info.active]
            if i is None or not names or rule.vjp(i) is None:
                continue
            if isinstance(rule.vjp(i), NoDerivative):
                raise self.ctx.error(rule.vjp(i).message, op.node, rule.vjp(i).hint)
            if op.fn is operator.getitem and i > 0:
                continue
            drop = i < len(args) and self.same_shape(rule, args, i)
            pre, expr = templates.instantiate(rule.vjp(i), self.ctx, g, self.load(ans.id), args,
                                              op.kwargs, drop_unbroadcast=drop, index_params=index_params)
            if self.here is not None:      # np.cos(x) that the primal computed: read its name
                available, at = self.here
                pre = [available.substitute(p, at, self.resolve) for p in pre]
                expr = available.substitute(expr, at, self.resolve)
            if isinstance(expr, ast.Constant) and expr.value is None:
                continue  # the rule says: no gradient flows here
            block.extend(pre)
            if isinstance(a, ast.Name):
                self.contribute(block, has, a.id, expr)
            elif isinstance(a, (ast.Tuple, ast.List)):
                tmp = self.ctx.namer.temp("r")
                block.append(ast.Assign([ast.Name(tmp, ast.Store())], expr))

                def spread(literal, part):
                    """Element j of a (nested) literal argument gets slot j of its part (`np.array(rows)`
                    with rows = [(a, b), ...] expanded: inner tuples are literals too)."""
                    from runtime.rules.containers import slot
                    for j, e in enumerate(literal.elts):
                        if isinstance(e, ast.Name) and e.id in info.active:
                            self.contribute(block, has, e.id, ast.Subscript(part, ast.Constant(j), ast.Load())
                                            if part is not None and isinstance(part, ast.Name) else
                                            ast.Call(self.ctx.ref(slot, "slot"), [part, ast.Constant(j), e], []))
                        elif isinstance(e, (ast.Tuple, ast.List)) and any(n in info.active for n in _names(e)):
                            spread(e, ast.Call(self.ctx.ref(slot, "slot"), [part, ast.Constant(j), ast.Constant(0.0)],
                                               []))

                spread(a, self.load(tmp))
            else:
                raise self.ctx.error("cannot differentiate through this argument", a,
                                     "assign it to a name first")

    def same_shape(self, rule, args, i):
        """True when the result of an elementwise op provably has the shape of args[i]."""
        if not isinstance(rule.fn, np.ufunc):
            return False
        me = args[i]
        for j, other in enumerate(args):
            if j == i:
                continue
            if isinstance(other, ast.Constant) and isinstance(other.value, (int, float)) \
                    and not isinstance(other.value, bool):
                continue
            if isinstance(other, ast.Name) and (other.id in self.info.scalars
                                                or (isinstance(me, ast.Name) and other.id == me.id)):
                continue
            return False
        return True


def keyword_argument(ctx, op, key, active, block):
    """The position of primitive ``op``'s keyword ``key`` when its value carries a gradient (``active``:
    is a name differentiable?) and the rule differentiates that parameter, else None.  A differentiable
    value in a keyword no rule names is refused; in one the rule names but gives no derivative (an
    ``axis=`` computed from saved values), ``block`` gets a check that refuses a float there when the
    code runs: never a silent zero."""
    value = op.kwargs[key]
    if not any(active(n) for n in _names(value)):
        return None
    i = op.position(key)
    rule = op.rule
    if i is not None and (rule.vjp(i) is not None or rule.jvp(i) is not None):
        return i
    message = (f"the differentiable value `{ast.unparse(value)}` is passed to {rule.name} as keyword `{key}=`, "
               "which has no derivative rule")
    hint = "pass a constant there, or compute that part of the value another way"
    if i is None:
        raise ctx.error(message, op.node, hint)
    from ..frontend.effects.checks import RunCheck

    def floating(v):
        """a float value where the rule gives no derivative"""
        if v is None or isinstance(v, (str, bool, int, type, np.dtype)):
            return None
        try:
            kind = np.asarray(v).dtype.kind
        except (TypeError, ValueError):
            return None
        return f"{type(v).__name__} of floats" if kind in "fc" else None

    check = RunCheck(floating, lambda found: ctx.error(f"{message} (a {found} here)", op.node, hint))
    block.append(ast.Expr(ast.Call(ctx.ref(check, "keyword_check"), [copy_ast(value)], [])))
    return None


def _names(node):
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, (ast.Tuple, ast.List)):
        return [n for e in node.elts for n in _names(e)]
    return []


_BUILTIN_HINTS = {
    zip: "iterate over the pairs where they are made (`for a, b in zip(xs, ys):`), or keep them in a "
         "list with a comprehension: `pairs = [(a, b) for a, b in zip(xs, ys)]`",
    sorted: "sort a list made in this function (`sorted(items)`, `sorted(items, key=lambda v: ..., "
            "reverse=True)`; copy a list passed in with `items = [v for v in xs]` first), a dict's keys "
            "with `for k in sorted(d):` and `d[k]`, or an array with np.sort(x)",
}
"""What to write instead of a builtin used in a way adjoin does not model (as a value, or of an
argument), for builtins whose other uses work."""


def _qualname(fn):
    from runtime.rules.registry import _name_of
    try:
        name = _name_of(fn)
    except Exception:
        name = repr(fn)
    mod = getattr(fn, "__module__", None)
    if mod and not name.startswith(("np.", "math.", "operator.", "builtins.")) and mod != "builtins" \
            and "." not in name:
        name = f"{mod}.{name}" if mod != "__main__" else name
    return name
