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
    ast.Yield: ("a `yield` used as a value (what `send()` passes in) cannot be differentiated: a generator is "
                "differentiated as the list of the values it yields", "write `yield v` as a statement of its own"),
    ast.YieldFrom: ("a `yield from` used as a value (the inner generator's return value) cannot be differentiated: a "
                    "generator is differentiated as the list of the values it yields",
                    "write `yield from it` as a statement of its own"),
    ast.Starred: ("star-arguments are not supported", "pass the arguments one by one"),
}

_OPAQUE = (ast.JoinedStr, ast.Set)

# attributes of a local value read as the numpy functions they are (numbers have .real and .imag too)
_ARRAY_ATTRIBUTES = {"T": "transpose", "real": "real", "imag": "imag"}
if hasattr(np, "matrix_transpose"):
    _ARRAY_ATTRIBUTES["mT"] = "matrix_transpose"


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
                if isinstance(self.version[node.id], instances.ClassRef):
                    raise self.error("`cls` of an inlined classmethod is used here as a value", node,
                                     "call it (cls(...)) or one of its methods")
                if instances.is_object(self.version[node.id]):
                    return self.version[node.id]      # an object made here: where it may go, callers say
                return loc(ast.Name(self.version[node.id], ast.Load()))
            if self.is_unbound(node.id):
                return self.unbound_read(node)
            if self.scope.lookup(node.id) is MISSING:
                raise Unresolved(node.id, node)
            return self.global_name(node)
        if isinstance(node, ast.BinOp):
            return loc(ast.BinOp(self.atom(node.left), node.op, self.atom(node.right)))
        if isinstance(node, ast.UnaryOp):
            return loc(ast.UnaryOp(node.op, self.atom(node.operand)))
        if isinstance(node, ast.Compare):
            if len(node.ops) == 1:
                left, right = self.expr(node.left), self.expr(node.comparators[0])
                if instances.is_object(left) or instances.is_object(right):
                    return instances.compare(self, node, left, right)
                return loc(ast.Compare(left, node.ops, [right]))
            # a < b < c  ->  (a < b) and (b < c), each operand evaluated once
            left = self.atom(node.left)
            rights = []
            parts = []
            for op, comp in zip(node.ops, node.comparators):
                parts.append((op, comp))
            return self.chain(left, parts, node)
        if isinstance(node, ast.BoolOp):
            return self.boolop(node)
        if isinstance(node, ast.IfExp):
            test = self.atom(node.test)
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
            if isinstance(base, instances.Instance):         # S(1.5).k, make().k
                return instances.attribute(self, node, base)
            if isinstance(base, instances.Objects):          # p.x of a namedtuple made here
                return base.field(self, node)
            self.plain(base, node.value)
            if node.attr in _ARRAY_ATTRIBUTES:        # x.T, x.real, x.imag, x.mT: the numpy functions
                name = _ARRAY_ATTRIBUTES[node.attr]
                return self.numpy_call(getattr(np, name), name, [base], [], node)
            new = loc(ast.Attribute(base, node.attr, ast.Load()))
            anno.put(new, "attr", node.attr)
            return new
        if isinstance(node, ast.Subscript):
            if self.static(node.value) and any(self.resolve(node.value) is c for c in (np.r_, np.c_)):
                return self.index_concatenation(node)       # (by identity: `array == np.r_` loops)
            base = self.expr(node.value)
            if isinstance(base, instances.Objects):           # layers[0] of [Layer(..), Layer(..)]
                try:
                    key = ast.literal_eval(node.slice)
                except ValueError:
                    key = None
                return base.item(self, ast.Constant(key) if isinstance(key, (int, str)) else self.index(node.slice), node)
            index = self.index(node.slice)
            self.plain(base, node.value)
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
            elts = [self.expr(e) for e in node.elts]
            if any(instances.is_object(e) for e in elts):    # a literal holding objects made here
                return instances.Objects(type(node), elts)
            return loc(type(node)(elts, ast.Load()))
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
            if isinstance(e, ast.Slice) and column or isinstance(e, ast.Constant) and isinstance(e.value, str):
                raise self.error(f"np.{'c_' if column else 'r_'}[...] with {'slices' if column else 'string directives'} "
                                 "cannot be differentiated", e, "build the array with np.concatenate / np.arange")
        atoms = [self.index_range(e) if isinstance(e, ast.Slice) else self.expand(self.atom(e)) for e in items]
        if column:      # each item at least 2-d with its axes first (np.column_stack of one), joined on -1
            pieces = [self.temp(self.numpy_call(np.column_stack, "column_stack", [ast.List([a], ast.Load())],
                                                [], node), node) for a in atoms]
        else:
            pieces = [self.temp(self.numpy_call(np.atleast_1d, "atleast_1d", [a], [], node), node) for a in atoms]
        return self.numpy_call(np.concatenate, "concatenate", [ast.List(pieces, ast.Load())],
                               [ast.keyword("axis", ast.Constant(-1 if column else 0))], node)

    def index_range(self, node):
        """A slice in ``np.r_[...]``: ``np.arange(start, stop, step)``, or ``np.linspace(start, stop, n)``
        for a complex step ``nj`` (a constant: numpy reads it as a count of points)."""
        start = self.expand(self.expr(node.lower)) if node.lower is not None else ast.Constant(0)
        stop = self.expand(self.expr(node.upper)) if node.upper is not None else None
        if stop is None:
            raise self.error("np.r_[start:] has no end", node, "give the slice its stop: np.r_[0:n]")
        step = node.step
        if isinstance(step, ast.Constant) and isinstance(step.value, complex):
            count = ast.Constant(int(abs(step.value)))
            return self.temp(self.numpy_call(np.linspace, "linspace", [start, stop, count], [], node), node)
        args = [start, stop] + ([] if step is None else [self.expand(self.expr(step))])
        return self.temp(self.numpy_call(np.arange, "arange", args, [], node), node)

    def rename_loads(self, node):
        new = copy.deepcopy(node)
        for n in walk(new):
            if isinstance(n, ast.Name) and n.id in self.version:
                n.id = self.version[n.id]
        return new

    def chain(self, left, parts, node):
        """Chained comparison as nested conditionals (short-circuit like Python)."""
        op, comp = parts[0]
        right = self.atom(comp)
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
        first = self.atom(node.values[0])
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
            parts = [None if p is None else self.atom(p) for p in (node.lower, node.upper, node.step)]
            return ast.copy_location(ast.Slice(*parts), node)
        if isinstance(node, ast.Tuple):
            return ast.copy_location(ast.Tuple([self.index(e) for e in node.elts], ast.Load()), node)
        if hasattr(ast, "Index") and isinstance(node, getattr(ast, "Index")):  # Python < 3.9 only
            return self.index(node.value)
        if isinstance(node, (ast.List,)):
            return self.expand(self.atom(node))
        return self.expand(self.atom(node))
