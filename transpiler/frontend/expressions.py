"""Expressions: each becomes one core value on atoms, its parts named by temporaries.

Operators, comparisons (chained ones short-circuit), ``and``/``or`` and conditional
expressions (as core ``if``), attribute reads, subscripts and index expressions, tuple and
list literals; calls are calls/sites.py's, comprehensions and dict literals
containers/writes.py's.
"""

import ast
import copy

import numpy as np

from ..core import annotations as anno
from ..core.astutil import walk
from ..core.errors import Unresolved
from ..core.ir import MISSING
from .calls import nested
from .objects import instances
from .containers import writes

__all__ = ["Expressions"]


_UNSUPPORTED_EXPR = {
    ast.Lambda: ("this lambda cannot be differentiated here: adjoin inlines a lambda that is bound to a name, "
                 "called, or passed to `map`, `filter`, `sorted`, `max`, `min` or to a plain function "
                 "defined in this module (without a closure)",
                 "define a module-level function for it and call that function directly"),
    ast.SetComp: writes.SET_COMPREHENSION,
    ast.NamedExpr: ("assignment expressions (:=) are not supported", "use a separate assignment"),
    ast.Await: ("await is not supported", "differentiate a synchronous function"),
    ast.Yield: ("generators (`yield`) cannot be differentiated", "return a value (or a list of values) "
                "instead of yielding"),
    ast.YieldFrom: ("generators (`yield from`) cannot be differentiated", "return a value (or a list of values) "
                    "instead of yielding"),
    ast.Starred: ("star-arguments are not supported", "pass the arguments one by one"),
}

_OPAQUE = (ast.JoinedStr, ast.Set)


class Expressions:
    """Mixin of Normalizer: ``value`` lowers one expression."""

    def value(self, node):
        """Normalize ``node`` to a core value (one operation on atoms)."""
        kind = type(node)
        if kind in _UNSUPPORTED_EXPR:
            msg, hint = _UNSUPPORTED_EXPR[kind]
            raise self.error(msg, node, hint)
        loc = lambda new: ast.copy_location(new, node)  # noqa: E731
        if isinstance(node, ast.Constant):
            return loc(ast.Constant(node.value))
        if isinstance(node, ast.Name):
            if nested.is_local_function(self, node.id):
                raise self.error(f"the nested function {node.id} is used as a value", node,
                                 f"define {node.id} at module level to pass it around")
            if node.id in self.version:
                if isinstance(self.version[node.id], (instances.Instance, instances.ClassRef)):
                    if isinstance(self.version[node.id], instances.ClassRef):
                        raise self.error("`cls` of an inlined classmethod is used here as a value", node,
                                         "call it (cls(...)) or one of its methods")
                    raise instances.escape_error(self, node, self.version[node.id])
                return loc(ast.Name(self.version[node.id], ast.Load()))
            if self.scope.lookup(node.id) is MISSING:
                raise Unresolved(node.id, node)
            new = loc(ast.Name(node.id, ast.Load()))
            anno.put(new, "static", True)
            return new
        if isinstance(node, ast.BinOp):
            return loc(ast.BinOp(self.expr(node.left), node.op, self.expr(node.right)))
        if isinstance(node, ast.UnaryOp):
            return loc(ast.UnaryOp(node.op, self.expr(node.operand)))
        if isinstance(node, ast.Compare):
            if len(node.ops) == 1:
                return loc(ast.Compare(self.expr(node.left), node.ops, [self.expr(node.comparators[0])]))
            # a < b < c  ->  (a < b) and (b < c), each operand evaluated once
            left = self.expr(node.left)
            rights = []
            parts = []
            for op, comp in zip(node.ops, node.comparators):
                parts.append((op, comp))
            return self.chain(left, parts, node)
        if isinstance(node, ast.BoolOp):
            return self.boolop(node)
        if isinstance(node, ast.IfExp):
            test = self.expr(node.test)
            result = self.ctx.namer.temp()
            body = self.branch(node.body, result)
            orelse = self.branch(node.orelse, result)
            self.emit(ast.If(test, body, orelse), node)
            return loc(ast.Name(result, ast.Load()))
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name) and isinstance(self.version.get(node.value.id), instances.Instance):
                return instances.attribute(self, node, self.version[node.value.id])
            sup = instances.super_of(self, node.value)
            if sup is not None and isinstance(sup[0], instances.Instance):
                return instances.attribute(self, node, sup[0], after=sup[1])
            if self.static(node):
                self.resolve(node)
                new = loc(ast.Attribute(self.value(node.value), node.attr, ast.Load()))
                anno.put(new, "static", True)
                return new
            base = self.expr(node.value)
            if node.attr == "T":
                return self.numpy_call(np.transpose, "transpose", [base], [], node)
            new = loc(ast.Attribute(base, node.attr, ast.Load()))
            anno.put(new, "attr", node.attr)
            return new
        if isinstance(node, ast.Subscript):
            if self.static(node.value) and any(self.resolve(node.value) is c for c in (np.r_, np.c_)):
                return self.index_concatenation(node)       # (by identity: `array == np.r_` loops)
            base = self.expr(node.value)
            index = self.index(node.slice)
            item = nested.kwarg_item(self, base, index)
            if item is not None:
                return item
            if isinstance(base, ast.Name) and base.id in self.tuples and isinstance(index, ast.Constant) \
                    and isinstance(index.value, int):
                elts = self.tuples[base.id]
                if -len(elts) <= index.value < len(elts):
                    elt = elts[index.value]
                    if isinstance(elt, (ast.List, ast.Tuple)):
                        elt = copy.copy(elt)
                        anno.put(elt, "element", True)     # the inner list itself: a name for it is an alias
                    return elt
            return loc(ast.Subscript(base, index, ast.Load()))
        if isinstance(node, (ast.Tuple, ast.List)):
            if any(isinstance(e, ast.Starred) for e in node.elts):
                raise self.error("starred elements are not supported", node, "list the elements one by one")
            # nested literals stay named (t1 = (1.0, a); seq = (t1, ...)): each level's adjoint
            # then flows through its own assignment
            return loc(type(node)([self.expr(e) for e in node.elts], ast.Load()))
        if isinstance(node, (ast.ListComp, ast.GeneratorExp, ast.DictComp)):
            return writes.comprehension(self, node)
        if isinstance(node, ast.Dict):
            return writes.dict_literal(self, node)
        if isinstance(node, _OPAQUE):
            new = self.rename_loads(node)
            anno.put(new, "opaque", True)
            return new
        if isinstance(node, ast.Slice):
            raise self.error("a slice outside of an index", node, "use slice(...) explicitly")
        raise self.error(f"{kind.__name__} expressions are not supported", node,
                         "rewrite the expression with numpy operations")

    def index_concatenation(self, node):
        """``np.r_[a, b]`` as ``np.concatenate([np.atleast_1d(a), np.atleast_1d(b)])`` and ``np.c_[a, b]`` as
        the concatenation on the last axis of each item made 2-d the way np.c_ does, so the pieces get
        gradients (slices and string directives are refused)."""
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        column = self.resolve(node.value) is np.c_
        for e in items:
            if isinstance(e, ast.Slice) or isinstance(e, ast.Constant) and isinstance(e.value, str):
                raise self.error(f"np.{'c_' if column else 'r_'}[...] with slices or string directives cannot "
                                 "be differentiated", e, "build the array with np.concatenate / np.arange")
        atoms = [self.expand(self.expr(e)) for e in items]
        if column:      # each item at least 2-d with its axes first (np.column_stack of one), joined on -1
            pieces = [self.temp(self.numpy_call(np.column_stack, "column_stack", [ast.List([a], ast.Load())],
                                                [], node), node) for a in atoms]
        else:
            pieces = [self.temp(self.numpy_call(np.atleast_1d, "atleast_1d", [a], [], node), node) for a in atoms]
        return self.numpy_call(np.concatenate, "concatenate", [ast.List(pieces, ast.Load())],
                               [ast.keyword("axis", ast.Constant(-1 if column else 0))], node)

    def rename_loads(self, node):
        new = copy.deepcopy(node)
        for n in walk(new):
            if isinstance(n, ast.Name) and n.id in self.version:
                n.id = self.version[n.id]
        return new

    def chain(self, left, parts, node):
        """Chained comparison as nested conditionals (short-circuit like Python)."""
        op, comp = parts[0]
        right = self.expr(comp)
        first = ast.copy_location(ast.Compare(left, [op], [right]), node)
        if len(parts) == 1:
            return first
        test = self.temp(first, node)
        result = self.ctx.namer.temp()
        saved, self.out = self.out, []
        rest = self.chain(right, parts[1:], node)
        self.assign(result, rest, node)
        body, self.out = self.out, saved
        orelse = [self.make_assign(result, test, node)]
        self.emit(ast.If(test, body, orelse), node)
        return ast.Name(result, ast.Load())

    def boolop(self, node):
        """``a and b`` -> ``b if a else a``; ``a or b`` -> ``a if a else b`` (short-circuit)."""
        first = self.expr(node.values[0])
        if len(node.values) == 1:
            return first
        rest = ast.copy_location(ast.BoolOp(node.op, node.values[1:]), node) if len(node.values) > 2 \
            else node.values[1]
        result = self.ctx.namer.temp()
        other = self.branch(rest, result)
        keep = [self.make_assign(result, first, node)]
        body, orelse = (other, keep) if isinstance(node.op, ast.And) else (keep, other)
        self.emit(ast.If(first, body, orelse), node)
        return ast.Name(result, ast.Load())

    def branch(self, expr_node, result):
        saved, self.out = self.out, []
        value = self.value(expr_node)
        self.assign(result, value, expr_node)
        body, self.out = self.out, saved
        return body

    def index(self, node):
        """An index expression with atoms for its parts (slices and tuples kept as syntax)."""
        if isinstance(node, ast.Slice):
            parts = [None if p is None else self.expr(p) for p in (node.lower, node.upper, node.step)]
            return ast.copy_location(ast.Slice(*parts), node)
        if isinstance(node, ast.Tuple):
            return ast.copy_location(ast.Tuple([self.index(e) for e in node.elts], ast.Load()), node)
        if hasattr(ast, "Index") and isinstance(node, getattr(ast, "Index")):  # Python < 3.9 only
            return self.index(node.value)
        if isinstance(node, (ast.List,)):
            return self.expand(self.expr(node))
        return self.expand(self.expr(node))
