"""Pass 5: make the generated function small -- fold constants, propagate copies, drop dead code.

Rule templates instantiated with literals leave arithmetic like ``x ** np.where(2, 2 - 1, 1)``
or ``g * 1``; folding turns that into ``x``.  Copies such as ``bt = bout`` disappear.  Dead
code elimination then removes every primal value and adjoint that no returned value needs
(only side-effect-free assignments are removed; user calls and asserts always stay).
"""

import ast
import math
import operator

import numpy as np

from runtime.rules import registry

from . import inline, peephole, release, shapes
from .index import NodeIndex
from ..core import annotations as anno
from ..core.astutil import fix_locations, walk
from ..core.ir import COMMENT

__all__ = ["optimize"]

_FOLD_BIN = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
             ast.Div: operator.truediv, ast.Pow: operator.pow, ast.FloorDiv: operator.floordiv,
             ast.Mod: operator.mod}
_FOLD_CMP = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
             ast.Gt: operator.gt, ast.GtE: operator.ge}


def _number(node):
    return isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) \
        and not isinstance(node.value, bool)


def _is(node, value):
    return _number(node) and node.value == value and type(node.value) in (int, float)


class _Fold:
    """Constant folding and the identities x*1, 1*x, x/1, x**1, x+0, x-0, -(-x).

    A bottom-up rewrite like ``ast.NodeTransformer``'s (a visitor returns the node to put in
    its place), without its per-node method lookup and generic dispatch: only the four node
    types below are rewritten, and names and constants have nothing inside to visit."""

    def __init__(self, resolve):
        self.resolve = resolve
        self._visitors = {ast.BinOp: self.visit_BinOp, ast.UnaryOp: self.visit_UnaryOp,
                          ast.Compare: self.visit_Compare, ast.Call: self.visit_Call}

    def visit(self, node, _leaves=(ast.Name, ast.Constant)):
        if node.__class__ in _leaves:
            return node
        self.generic_visit(node)
        visitor = self._visitors.get(node.__class__)
        return node if visitor is None else visitor(node)

    def generic_visit(self, node, _AST=ast.AST, _list=list):
        """Rewrite ``node``'s children in place, before ``node`` itself (bottom-up)."""
        visit = self.visit
        for name in node._fields:
            v = getattr(node, name, None)
            if v.__class__ is _list:
                for i, x in enumerate(v):
                    if isinstance(x, _AST):
                        new = visit(x)
                        if new is not x:
                            v[i] = new
            elif isinstance(v, _AST) and v._fields:
                new = visit(v)
                if new is not v:
                    setattr(node, name, new)
        return node

    def visit_BinOp(self, node):
        l, r, op = node.left, node.right, type(node.op)
        if _number(l) and _number(r) and op in _FOLD_BIN:
            try:
                v = _FOLD_BIN[op](l.value, r.value)
                if isinstance(v, (int, float)) and math.isfinite(v) and abs(v) < 1e15:
                    return ast.copy_location(ast.Constant(v), node)
            except Exception:
                pass
        if op is ast.Mult and _is(r, 1) or op is ast.Div and _is(r, 1) or op is ast.Pow and _is(r, 1):
            return l
        if op is ast.Mult and _is(l, 1):
            return r
        if op in (ast.Add, ast.Sub) and _is(r, 0):
            return l
        if op is ast.Add and _is(l, 0):
            return r
        return node

    def visit_UnaryOp(self, node):
        if isinstance(node.op, ast.USub):
            if isinstance(node.operand, ast.UnaryOp) and isinstance(node.operand.op, ast.USub):
                return node.operand.operand
        return node

    def visit_Compare(self, node):
        if len(node.ops) == 1 and type(node.ops[0]) in _FOLD_CMP and _number(node.left) \
                and _number(node.comparators[0]):
            value = _FOLD_CMP[type(node.ops[0])](node.left.value, node.comparators[0].value)
            return ast.copy_location(ast.Constant(bool(value)), node)
        return node

    def visit_Call(self, node):
        if len(node.args) == 3 and not node.keywords and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, bool) and all(_number(a) for a in node.args[1:]) \
                and self.resolve(node.func) is np.where:
            # np.where(2.0 == 0, 1, 2.0) in a rule for a constant operand: the branch as a Python
            # number (a numpy float64 scalar there would make float32 code float64)
            return node.args[1] if node.args[0].value else node.args[2]
        if node.keywords or not node.args or not all(_number(a) for a in node.args):
            return node
        fn = self.resolve(node.func)
        if fn is np.where or isinstance(fn, np.ufunc):
            try:
                v = fn(*[a.value for a in node.args])
                v = v.item() if hasattr(v, "item") else v
                if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v):
                    return ast.copy_location(ast.Constant(v), node)
            except Exception:
                pass
        return node


def _is_comment(s):
    return isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) \
        and isinstance(s.value.value, str) and s.value.value.startswith(COMMENT)


def _pure(value, resolve, index):
    for n in index.calls(value):
        fn = resolve(n.func)
        if fn is None:
            return False
        mod = getattr(fn, "__module__", None) or ""
        if mod.startswith("numpy.random"):
            return False        # draws advance the generator: an effect to keep
        if registry.lookup(fn) is not None or isinstance(fn, np.ufunc) \
                or mod.startswith(("numpy", "runtime.rules", "math")) or fn in (slice, len, tuple):
            continue
        return False
    return True


def _propagate_copies(body, params, index):
    """Remove top-level ``a = b`` when a is assigned once and b never again afterwards.

    One pass over ``body`` with a rename map (later reads of ``a`` read ``b``), so the cost is
    linear in the function's size."""
    stores = {}
    nested = set()
    for i, s in enumerate(body):
        if isinstance(s, ast.Assign) and isinstance(s.targets[0], ast.Name):
            stores.setdefault(s.targets[0].id, []).append(i)
        elif isinstance(s, ast.Assign):
            for n in index.names(s.targets[0]):
                nested.add(n.id)
        elif isinstance(s, (ast.If, ast.For, ast.While)):
            for n in index.names(s):
                if isinstance(n.ctx, ast.Store):
                    nested.add(n.id)
    last = {name: max(where) for name, where in stores.items()}
    renames = {}
    keep = []
    for i, s in enumerate(body):
        if renames:
            for n in index.names(s):
                if isinstance(n.ctx, ast.Load) and n.id in renames:
                    n.id = renames[n.id]
        if isinstance(s, ast.Assign) and isinstance(s.targets[0], ast.Name) and isinstance(s.value, ast.Name):
            a, b = s.targets[0].id, s.value.id
            if a not in params and a not in nested and b not in nested and len(stores.get(a, [])) == 1 \
                    and last.get(b, -1) < i:
                renames[a] = b
                continue
        keep.append(s)
    body[:] = keep


def _count(tree, ctx, index):
    out = {}
    for n in index.names(tree):
        if isinstance(n.ctx, ctx):
            out[n.id] = out.get(n.id, 0) + 1
    return out


def _propagate_local(fn, params, index):
    """``a = b`` inside any block: read ``b`` instead when ``a`` is assigned once and read only
    later in the same block, before ``b`` changes (the copies rule templates leave in loops)."""
    stores, loads = {}, {}                     # one pass over the names for both counts
    for n in index.names(fn):
        counts = stores if n.ctx.__class__ is ast.Store else loads if n.ctx.__class__ is ast.Load else None
        if counts is not None:
            counts[n.id] = counts.get(n.id, 0) + 1

    def visit(block):
        for s in block:
            for field in ("body", "orelse"):
                if isinstance(s, (ast.If, ast.For, ast.While)):
                    visit(getattr(s, field))
        counted = {}                      # id(statement) -> (its loads, its stores), each counted once

        def counts(st):
            c = counted.get(id(st))
            if c is None:
                c = counted[id(st)] = (_count(st, ast.Load, index), _count(st, ast.Store, index))
            return c

        i = 0
        while i < len(block):
            s = block[i]
            if isinstance(s, ast.Assign) and isinstance(s.targets[0], ast.Name) and isinstance(s.value, ast.Name):
                a, b = s.targets[0].id, s.value.id
                if a != b and a not in params and stores.get(a) == 1 and loads.get(a, 0) > 0:
                    later = block[i + 1:]
                    where = [j for j, st in enumerate(later) if a in counts(st)[0]]
                    total = sum(counts(later[j])[0][a] for j in where)
                    if where and total == loads[a]:
                        last = where[-1]
                        between = later[:last]
                        ok = not any(b in counts(st)[1] for st in between)
                        end = later[last]
                        if ok and b in counts(end)[1] and not (
                                isinstance(end, ast.Assign) and isinstance(end.targets[0], ast.Name)):
                            ok = False
                        if ok:
                            for j in where:
                                st = later[j]
                                for n in index.names(st):
                                    if isinstance(n.ctx, ast.Load) and n.id == a:
                                        n.id = b
                                st_loads = counts(st)[0]
                                st_loads[b] = st_loads.get(b, 0) + st_loads.pop(a)
                            loads[b] = loads.get(b, 0) + total - 1
                            loads[a] = 0
                            del block[i]
                            continue
            i += 1

    visit(fn.body)


def _dce(body, live, resolve, index):
    """Remove dead pure assignments; returns the names live before ``body``.

    ``live`` (the names live after ``body``) is updated in place and returned: a new set per
    statement made the pass quadratic, as the live set grows with the function."""
    keep = []
    for s in reversed(body):
        if isinstance(s, ast.Assign) and not isinstance(s.targets[0], ast.Name):
            live.difference_update([n.id for n in index.names(s.targets[0])])
            live.update(index.reads(s.value))
            keep.append(s)
        elif isinstance(s, ast.Assign):
            name = s.targets[0].id
            # one target, a name: the statement reads and calls what its value does (the
            # statement's lists are the ones the copy propagations made already)
            value = s if len(s.targets) == 1 else s.value
            if name not in live and _pure(value, resolve, index) \
                    and not anno.get(anno.get(s, "src"), "guarded", False) \
                    and not anno.get(s, "checks", False):   # may raise: try; shapes.py relies on it
                continue
            live.discard(name)
            live.update(index.reads(value))
            keep.append(s)
        elif isinstance(s, ast.If):
            a = _dce(s.body, set(live), resolve, index)
            b = _dce(s.orelse, set(live), resolve, index)
            s.body = [x for x in s.body if not isinstance(x, ast.Pass)] or [ast.Pass()]
            s.orelse = [x for x in s.orelse if not isinstance(x, ast.Pass)] or [ast.Pass()]
            if all(isinstance(x, ast.Pass) for x in s.body + s.orelse):
                continue
            live = a | b | index.reads(s.test)
            keep.append(s)
        elif isinstance(s, (ast.For, ast.While)):
            # conservatively, whatever the loop reads anywhere is live at the end of its body
            _dce(s.body, live | index.reads(s), resolve, index)
            s.body = [x for x in s.body if not isinstance(x, ast.Pass)] or [ast.Pass()]
            if all(isinstance(x, ast.Pass) or _is_comment(x) for x in s.body):
                continue
            live.update(index.reads(s))
            keep.append(s)
        elif _is_comment(s):
            keep.append(s)
        else:
            live.update(index.reads(s))
            keep.append(s)
    keep.reverse()
    body[:] = keep
    return live


def _tidy_comments(body):
    out = []
    for i, s in enumerate(body):
        if _is_comment(s):
            nxt = body[i + 1] if i + 1 < len(body) else None
            if nxt is None or _is_comment(nxt) or isinstance(nxt, ast.Return):
                continue
        if isinstance(s, ast.If):
            s.body = _tidy_comments(s.body) or [ast.Pass()]
            s.orelse = _tidy_comments(s.orelse) or [ast.Pass()]
        elif isinstance(s, (ast.For, ast.While)):
            s.body = _tidy_comments(s.body) or [ast.Pass()]
        out.append(s)
    return out


def _as_ifexp(body):
    """``if c: a = x`` / ``else: a = y`` (one assignment each) back to ``a = x if c else y``.

    Keeps a conditional expression of the user's (or a generated seed default) one line, and
    keeps generated code inside the straight-line core so it can be transformed again."""
    out = []
    for s in body:
        if isinstance(s, ast.If) and len(s.body) == 1 and len(s.orelse) == 1:
            a, b = s.body[0], s.orelse[0]
            if isinstance(a, ast.Assign) and isinstance(b, ast.Assign) and len(a.targets) == 1 \
                    and len(b.targets) == 1 and isinstance(a.targets[0], ast.Name) \
                    and isinstance(b.targets[0], ast.Name) and a.targets[0].id == b.targets[0].id:
                new = ast.Assign([a.targets[0]], ast.IfExp(s.test, a.value, b.value))
                out.append(ast.copy_location(new, s))
                continue
        if isinstance(s, ast.If):
            s.body, s.orelse = _as_ifexp(s.body), _as_ifexp(s.orelse)
        out.append(s)
    return out


def optimize(fn, ctx, names=None):
    """Simplify the generated FunctionDef ``fn`` in place and return it (located).  ``names``:
    a list that receives the result's ``Name`` nodes (``fix_locations``)."""
    resolve = ctx.resolve
    fn = _Fold(resolve).visit(fn)
    arrays = ctx.arrays       # a variant specialised on the arguments' ndim
    if arrays:
        shapes.specialise(fn, ctx, arrays, ctx.shapes_from, ctx.scalar_seed)
    index = NodeIndex()          # built by tidy, kept by the passes up to dead code elimination
    peephole.tidy(fn, resolve, index)
    params = {a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs}
    _propagate_copies(fn.body, params, index)
    _propagate_local(fn, params, index)
    _dce(fn.body, set(), resolve, index)
    peephole.writes_in_place(fn, resolve, ctx.ref)
    fn.body = _tidy_comments(fn.body)
    fn.body = _as_ifexp(fn.body)
    if arrays:
        if not ctx.handlers:       # a handler's try must see the same errors
            inline.inline_temporaries(fn, resolve)
        if any(a[2] for a in arrays.values()):       # floats: the free list
            release.release_dead(fn)
    return fix_locations(fn, names)
