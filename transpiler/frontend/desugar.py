"""Everyday Python written as the forms the front end already lowers (run before ``sugar``).

Each rewrite keeps the primal's values and order of evaluation, so the derivative of the
rewritten code is the derivative of the user's code:

* ``max(a, b, ...)``/``min(...)`` and ``max([a, b])`` -> ``np.maximum``/``np.minimum`` folded left
  (at a tie both give the first argument, as the builtins do); ``pow(a, b)`` -> ``a ** b``;
  ``sum(xs, start=s)`` -> ``sum(xs, s)``;
* ``sorted([..], key=, reverse=)``, ``max``/``min`` with ``key=`` of simple items -> the items picked
  by an index found on the values (order_, max_index_: no gradient flows through an order);
* ``dict(a=.., b=..)``, ``dict([(k, v), ..])``, ``dict(zip([k..], [v..]))``, ``list((..))``,
  ``tuple([..])`` of literals -> the literal; ``[a] + [b]``, ``(a,) + (b,)``, ``[a] * 3`` (of
  names and constants) and ``{..} | {..}`` of literals -> one literal;
* ``f(*[a, b], **{"k": v})`` -> ``f(a, b, k=v)``; ``map``/``filter`` -> a list comprehension (a
  lambda's body inlined); ``reversed([a, b])`` -> ``[b, a]``; calls of ``p = functools.partial(g, a)``
  -> ``g(a, ...)`` when ``p`` is only called and ``a`` is bound once;
* ``y := e`` -> ``y = e`` before the statement, when nothing before it in the statement reads
  ``y`` and it is not inside ``and``/``or``/``if``-expressions, comprehensions or lambdas;
* ``f = lambda v: e`` -> ``def f(v): return e``; ``del name`` when ``name`` is not read again;
* on locals only ever bound to list/dict literals: ``a.extend([..])``, ``a += [..]`` -> appends;
  ``d.update(..)`` -> item assignments; ``d.setdefault(k, e)``, ``d.get(k)``, ``d.values()``;
  ``f(*a)``/``f(**d)``/``a[i:j]`` of a literal bound once and only read -> its items;
* ``match`` -> ``if``/``elif`` (control/match.py);
* ``raise e`` -> ``raise_(e)``: primal code; a branch that raises never reaches the gradient.

Anything else is left as written (and refused later with a located ``TranspileError``).
objects/records.py writes namedtuples and dataclasses used only as records as tuples;
containers/literals.py says what is known about locals bound to literals and rewrites statements on them;
calls/primal_helpers.py holds the plain functions the rewritten code calls.
"""

import ast
import builtins
import copy
import functools

import numpy as np

from ..core import annotations as anno
from ..core.astutil import walk
from .calls.arguments import pure_argument, sliced_items
from .containers.literals import container_statement, const_int, kinds, literal_seq, partials, simple
from .control import iterables
from .control.match import lower_match
from .calls.primal_helpers import max_index_, max_position_, min_index_, min_position_, order_, order_positions_, raise_
from .objects.records import rewrite_records
from .traversal import Transformer, nodes as every_node

__all__ = ["rewrite"]


def rewrite(body, ctx):
    """``body`` (a list of statements) with the rewrites above applied."""
    exprs = _Exprs(ctx)
    body = iterables.rewrite(body, ctx)
    body = rewrite_records(body, ctx.parsed.scope)
    body = [exprs.visit(s) for s in body]          # first literals, so the containers' kinds show
    node = ctx.parsed.node
    nodes = every_node(ast.FunctionDef(node.name, node.args, body, [], None))   # (read only here)
    exprs.kinds, exprs.fixed = kinds(nodes)
    classes = set(map(type, nodes))
    exprs.hoists = any(issubclass(c, _MAY_HOIST) for c in classes) or ast.Call in classes and any(
        _ordering_call(n) for n in nodes if n.__class__ is ast.Call)
    return _statements(body, exprs)


class _Exprs(Transformer):
    def __init__(self, ctx):
        self.ctx = ctx
        node = ctx.parsed.node           # (as written: nothing has rewritten it yet)
        self.local = ctx.user_stored | {a.arg for a in walk(node.args) if isinstance(a, ast.arg)}
        self.partials = partials(node, ctx.parsed.scope)
        self.kinds, self.fixed = {}, {}
        self.hoists = True               # (rewrite: False when no statement can need a hoist)

    def _builtin(self, func, name):
        return (isinstance(func, ast.Name) and func.id == name and func.id not in self.local
                and self.ctx.parsed.scope.lookup(name) is getattr(builtins, name))

    def _np(self, attr):
        ref = self.ctx.ref(np, "np")
        self.ctx.parsed.scope.closure.setdefault(ref.id, np)
        return ast.Attribute(ref, attr, ast.Load())

    def visit_Lambda(self, node):
        return node                      # its body is rewritten when it becomes a def

    def visit_Call(self, node):
        node.args = [e for a in node.args for e in sliced_items(a, self.kinds)]
        self.generic_visit(node)
        node = self._splat(node)
        f = node.func
        if isinstance(f, ast.Lambda) and not node.keywords and _plain_lambda(f, len(node.args)) \
                and all(pure_argument(a, f) for a in node.args):
            return ast.copy_location(self._apply(f, node.args), node)      # (lambda v: e)(a) -> e[v := a]
        if not isinstance(f, (ast.Name, ast.Call)) and not (
                isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and self.kinds.get(f.value.id) is ast.Dict):
            return node          # (np.sin(x), a.method(): below, only builtins, partials and a dict's methods)
        pos = [a for a in node.args if not isinstance(a, ast.Starred)]
        plain = len(pos) == len(node.args)
        ordered = self._ordered(node, f, plain)
        if ordered is not None:
            return ast.copy_location(ordered, node)
        for name, picker in (("max", max_position_), ("min", min_position_)):
            if self._builtin(f, name) and plain and not node.keywords and len(node.args) == 1 \
                    and isinstance(node.args[0], ast.Name) and self.kinds.get(node.args[0].id) is ast.List:
                # max(lst) of a local list: the item at the position found on the values, so its
                # derivatives of any order are those of an item read
                ref = self.ctx.ref(picker, picker.__name__)
                self.ctx.parsed.scope.closure.setdefault(ref.id, picker)
                return ast.copy_location(ast.Subscript(copy.copy(node.args[0]), ast.Call(
                    ref, [copy.copy(node.args[0])], []), ast.Load()), node)
        for name, ufunc in (("max", "maximum"), ("min", "minimum")):
            if self._builtin(f, name) and plain and not node.keywords:
                items = node.args if len(node.args) >= 2 else (
                    node.args[0].elts if len(node.args) == 1 and literal_seq(node.args[0]) else None)
                if items:
                    out = items[0]
                    for item in items[1:]:
                        out = ast.Call(self._np(ufunc), [out, item], [])
                    return ast.copy_location(out, node) if len(items) > 1 else items[0]
        if self._builtin(f, "pow") and plain and len(node.args) == 2 and not node.keywords:
            return ast.copy_location(ast.BinOp(node.args[0], ast.Pow(), node.args[1]), node)
        if self._builtin(f, "sum") and plain and len(node.args) == 1 and [k.arg for k in node.keywords] == ["start"]:
            return ast.copy_location(ast.Call(f, [node.args[0], node.keywords[0].value], []), node)
        if self._builtin(f, "dict") and plain:
            d = self._dict_call(node)
            if d is not None:
                return ast.copy_location(d, node)
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and self.kinds.get(f.value.id) is ast.Dict:
            d = f.value
            if f.attr == "get" and plain and len(node.args) in (1, 2) and not node.keywords and simple(node.args[0]):
                default = node.args[1] if len(node.args) == 2 else ast.Constant(None)
                return ast.copy_location(ast.IfExp(ast.Compare(node.args[0], [ast.In()], [copy.copy(d)]),
                                                   ast.Subscript(copy.copy(d), copy.deepcopy(node.args[0]), ast.Load()),
                                                   default), node)
            if f.attr == "values" and not node.args and not node.keywords:
                key = self.ctx.namer.claim("key")
                return ast.copy_location(ast.ListComp(
                    ast.Subscript(copy.copy(d), ast.Name(key, ast.Load()), ast.Load()),
                    [ast.comprehension(ast.Name(key, ast.Store()), ast.Call(ast.Attribute(
                        copy.copy(d), "keys", ast.Load()), [], []), [], 0)]), node)
        if self._builtin(f, "reversed") and len(node.args) == 1 and not node.keywords \
                and literal_seq(node.args[0]) and all(simple(e) for e in node.args[0].elts):
            return ast.copy_location(ast.List(node.args[0].elts[::-1], ast.Load()), node)
        if self._builtin(f, "map") and plain and len(node.args) >= 2 and not node.keywords:
            return ast.copy_location(self._comprehension(node.args[0], node.args[1:], None), node)
        if self._builtin(f, "filter") and plain and len(node.args) == 2 and not node.keywords \
                and not (isinstance(node.args[0], ast.Constant) and node.args[0].value is None):
            return ast.copy_location(self._comprehension(None, node.args[1:], node.args[0]), node)
        if isinstance(f, ast.Call) and not f.keywords or isinstance(f, ast.Call) and all(k.arg for k in f.keywords):
            inner = self._partial_now(f)
            if inner is not None:        # functools.partial(g, a, k=v)(b) -> g(a, b, k=v)
                given = {k.arg for k in node.keywords}
                return ast.copy_location(ast.Call(inner.args[0], inner.args[1:] + node.args,
                                                  [k for k in inner.keywords if k.arg not in given]
                                                  + node.keywords), node)
        if isinstance(f, ast.Name) and f.id in self.partials:
            inner, args, keywords = self.partials[f.id]
            given = {k.arg for k in node.keywords}
            return ast.copy_location(ast.Call(copy.deepcopy(inner), [copy.deepcopy(a) for a in args] + node.args,
                                              [copy.deepcopy(k) for k in keywords if k.arg not in given]
                                              + node.keywords), node)
        for name, kind in (("list", ast.List), ("tuple", ast.Tuple)):
            if self._builtin(f, name) and plain and len(node.args) == 1 and not node.keywords \
                    and literal_seq(node.args[0]):
                return ast.copy_location(kind(list(node.args[0].elts), ast.Load()), node)
        if self._builtin(f, "list") and plain and len(node.args) == 1 and not node.keywords \
                and isinstance(node.args[0], ast.ListComp):
            return node.args[0]          # a comprehension already makes a new list
        return node

    def _partial_now(self, f):
        """``f`` when it is ``functools.partial(g, ...)`` with plain arguments, else None."""
        if not f.args or any(isinstance(a, ast.Starred) for a in f.args) or not self.ctx.parsed.scope:
            return None
        try:
            is_partial = self.ctx.parsed.scope.evaluate(f.func) is functools.partial
        except Exception:
            return None
        return f if is_partial else None

    def _ordered(self, node, f, plain):
        """``sorted([..], key=, reverse=)`` and ``max``/``min`` with ``key=`` over simple items: the
        order is found on the values (no gradient) and the items are picked by index."""
        kw = {k.arg: k.value for k in node.keywords}
        if not plain or None in kw:
            return None
        if self._builtin(f, "sorted") and len(node.args) == 1 and set(kw) <= {"key", "reverse"}:
            items, picker = node.args[0], order_
        elif (self._builtin(f, "max") or self._builtin(f, "min")) and set(kw) == {"key"} and node.args:
            items = node.args[0] if len(node.args) == 1 else ast.List(list(node.args), ast.Load())
            picker = max_index_ if f.id == "max" else min_index_
        else:
            return None
        if isinstance(items, ast.Name) and self.kinds.get(items.id) is ast.List:
            return self._ordered_list(items, kw, picker)
        if not (literal_seq(items) and items.elts and all(simple(e) for e in items.elts)):
            return None
        keys = [self._apply(kw["key"], [copy.deepcopy(e)]) if "key" in kw and not (
            isinstance(kw["key"], ast.Constant) and kw["key"].value is None) else copy.deepcopy(e) for e in items.elts]
        return self._picked(picker, keys, kw,
                            lambda index: ast.Subscript(ast.List(list(items.elts), ast.Load()), index, ast.Load()))

    def _ordered_list(self, items, kw, picker):
        """``sorted(lst, key=, reverse=)``, ``max``/``min(lst, key=)`` of a local list held in a
        name: the positions are found on the keys (no gradient), the items read by index."""
        key = kw.get("key")
        if key is None or isinstance(key, ast.Constant) and key.value is None:
            keys = copy.copy(items)
        else:
            v = self.ctx.namer.claim("item")
            value = self._apply(key, [ast.Name(v, ast.Load())]) if isinstance(key, ast.Lambda) else None
            if value is None:
                return None            # a key that is not a plain lambda: the call stays (and is refused)
            keys = ast.ListComp(value, [ast.comprehension(ast.Name(v, ast.Store()), copy.copy(items), [], 0)])
        helper = {order_: order_positions_, max_index_: max_position_, min_index_: min_position_}[picker]
        return self._picked(helper, [keys], kw, lambda index: ast.Subscript(copy.copy(items), index, ast.Load()))

    def _picked(self, picker, args, kw, pick):
        """``pick(picker(*args))`` -- the item max/min chooses --, or for sorted (``order_``,
        ``order_positions_``) ``[pick(i) for i in picker(*args, reverse=...)]``."""
        ref = self.ctx.ref(picker, picker.__name__)
        self.ctx.parsed.scope.closure.setdefault(ref.id, picker)
        call = ast.Call(ref, args, [ast.keyword("reverse", kw["reverse"])] if "reverse" in kw else [])
        if picker is not order_ and picker is not order_positions_:
            return pick(call)
        i = self.ctx.namer.claim("index")
        anno.put(call, "order", True)                   # its result is a list: a slice of the sorted items slices it
        return ast.ListComp(pick(ast.Name(i, ast.Load())), [ast.comprehension(ast.Name(i, ast.Store()), call, [], 0)])

    def _comprehension(self, fn, iterables, pred):
        """``map(fn, *iterables)`` / ``filter(pred, it)`` as a list comprehension (a lambda inlined)."""
        names = [self.ctx.namer.claim("item") for _ in iterables]
        loads = [ast.Name(n, ast.Load()) for n in names]
        target = ast.Name(names[0], ast.Store()) if len(names) == 1 else \
            ast.Tuple([ast.Name(n, ast.Store()) for n in names], ast.Store())
        it = iterables[0] if len(iterables) == 1 else ast.Call(ast.Name("zip", ast.Load()), list(iterables), [])
        elt = self._apply(fn, loads) if fn is not None else loads[0]
        ifs = [self._apply(pred, loads)] if pred is not None else []
        return ast.ListComp(elt, [ast.comprehension(target, it, ifs, 0)])

    def _apply(self, fn, loads):
        if isinstance(fn, ast.Lambda) and _plain_lambda(fn, len(loads)):
            body = copy.deepcopy(fn.body)
            mapping = {a.arg: n for a, n in zip(fn.args.args, loads)}
            for node in walk(body):
                for field, value in ast.iter_fields(node):
                    if isinstance(value, ast.Name) and value.id in mapping:
                        setattr(node, field, copy.copy(mapping[value.id]))
                    elif isinstance(value, list):
                        value[:] = [copy.copy(mapping[v.id]) if isinstance(v, ast.Name) and v.id in mapping else v
                                    for v in value]
            return self.visit(body) if not (isinstance(body, ast.Name) and body.id in mapping) \
                else copy.copy(mapping[body.id])
        return ast.Call(copy.deepcopy(fn), list(loads), [])

    def _dict_call(self, node):
        if not node.args and all(k.arg is not None for k in node.keywords):
            return ast.Dict([ast.Constant(k.arg) for k in node.keywords], [k.value for k in node.keywords])
        if len(node.args) != 1 or node.keywords:
            return None
        a = node.args[0]
        if literal_seq(a) and all(literal_seq(e) and len(e.elts) == 2 for e in a.elts):
            return ast.Dict([e.elts[0] for e in a.elts], [e.elts[1] for e in a.elts])
        if isinstance(a, ast.Call) and self._builtin(a.func, "zip") and not a.keywords and len(a.args) == 2 \
                and all(literal_seq(x) for x in a.args) and len(a.args[0].elts) == len(a.args[1].elts):
            return ast.Dict(list(a.args[0].elts), list(a.args[1].elts))
        return None

    def _splat(self, node):
        args = []
        for a in node.args:
            if isinstance(a, ast.Starred) and isinstance(a.value, ast.Name) and a.value.id in self.fixed \
                    and isinstance(self.fixed[a.value.id], (ast.List, ast.Tuple)):
                n = len(self.fixed[a.value.id].elts)
                args.extend(ast.Subscript(ast.Name(a.value.id, ast.Load()), ast.Constant(i), ast.Load())
                            for i in range(n))
            elif isinstance(a, ast.Starred) and literal_seq(a.value):
                args.extend(a.value.elts)
            else:
                args.append(a)
        keywords = []
        for k in node.keywords:
            if k.arg is None and isinstance(k.value, ast.Dict) and all(
                    isinstance(key, ast.Constant) and isinstance(key.value, str) and key.value.isidentifier()
                    for key in k.value.keys):
                keywords.extend(ast.keyword(key.value, v) for key, v in zip(k.value.keys, k.value.values))
            elif k.arg is None and isinstance(k.value, ast.Name) and isinstance(self.fixed.get(k.value.id), ast.Dict):
                keywords.extend(ast.keyword(key.value, ast.Subscript(ast.Name(k.value.id, ast.Load()),
                                                                     ast.Constant(key.value), ast.Load()))
                                for key in self.fixed[k.value.id].keys)
            else:
                keywords.append(k)
        named = [k.arg for k in keywords if k.arg is not None]
        if len(named) != len(set(named)):
            return node                  # Python raises TypeError for a repeated keyword: keep it
        node.args, node.keywords = args, keywords
        return node

    def visit_Subscript(self, node):
        """``a[i:j:k]`` with constant bounds of a list ``a`` bound once to a literal -> ``[a[..], ..]``."""
        self.generic_visit(node)
        a, sl = node.value, node.slice
        if isinstance(node.ctx, ast.Load) and isinstance(sl, ast.Slice) and isinstance(a, ast.Name) \
                and isinstance(self.fixed.get(a.id), ast.List):
            bounds = [const_int(b) for b in (sl.lower, sl.upper, sl.step)]
            if all(b is not False for b in bounds):
                n = len(self.fixed[a.id].elts)
                return ast.copy_location(ast.List([ast.Subscript(ast.Name(a.id, ast.Load()), ast.Constant(i), ast.Load())
                                                   for i in range(n)[slice(*bounds)]], ast.Load()), node)
        if isinstance(node.ctx, ast.Load) and isinstance(sl, ast.Slice):
            return ast.copy_location(self._list_slice(a, sl), node)
        return node

    def _list_slice(self, a, sl):
        """``a[i:j]`` of a local list (``a`` only ever bound to lists) -> ``[a[k] for k in
        range(len(a))[i:j]]``; ``[e for v in it][i:j]`` (``it`` a range or an order_) -> ``[e for v in
        it[i:j]]``: items read one by one, whose derivatives are known (no list slice rule)."""
        if isinstance(a, ast.Name) and self.kinds.get(a.id) is ast.List and a.id not in self.fixed:
            k = self.ctx.namer.claim("position")
            positions = ast.Subscript(ast.Call(ast.Name("range", ast.Load()), [ast.Call(
                ast.Name("len", ast.Load()), [ast.Name(a.id, ast.Load())], [])], []), sl, ast.Load())
            anno.put(positions, "order", True)
            return ast.ListComp(ast.Subscript(ast.Name(a.id, ast.Load()), ast.Name(k, ast.Load()), ast.Load()),
                                [ast.comprehension(ast.Name(k, ast.Store()), positions, [], 0)])
        if isinstance(a, ast.ListComp) and len(a.generators) == 1 and not a.generators[0].ifs \
                and not a.generators[0].is_async and (anno.get(a.generators[0].iter, "order", False) or isinstance(
                    a.generators[0].iter, ast.Call) and self._builtin(a.generators[0].iter.func, "range")):
            a.generators[0].iter = ast.Subscript(a.generators[0].iter, sl, ast.Load())
            anno.put(a.generators[0].iter, "order", True)
            return a
        return ast.Subscript(a, sl, ast.Load())

    def visit_BinOp(self, node):
        self.generic_visit(node)
        l, r = node.left, node.right
        if isinstance(node.op, ast.Add) and type(l) is type(r) and literal_seq(l) and literal_seq(r):
            return ast.copy_location(type(l)(l.elts + r.elts, ast.Load()), node)
        if isinstance(node.op, ast.Mult) and literal_seq(l) and isinstance(r, ast.Constant) \
                and type(r.value) is int and all(simple(e) for e in l.elts):
            return ast.copy_location(type(l)([copy.deepcopy(e) for _ in range(max(r.value, 0)) for e in l.elts],
                                              ast.Load()), node)
        if isinstance(node.op, ast.BitOr) and isinstance(l, ast.Dict) and isinstance(r, ast.Dict):
            keys = [k for k in l.keys + r.keys]
            if all(isinstance(k, ast.Constant) for k in keys):
                merged = {}
                for k, v in zip(keys, l.values + r.values):
                    if k.value in merged and not simple(merged[k.value][1]):
                        return node      # dropping it would skip its evaluation
                    merged[k.value] = (merged.get(k.value, (k, None))[0], v)
                return ast.copy_location(ast.Dict([k for k, _ in merged.values()],
                                                  [v for _, v in merged.values()]), node)
        return node


# --- statements: walrus, lambdas bound to names, del ---------------------------------------------
def _plain_lambda(fn, n):
    a = fn.args
    return (len(a.args) == n and not (a.posonlyargs or a.vararg or a.kwonlyargs or a.kwarg or a.defaults)
            and not any(isinstance(x, (ast.Lambda, ast.NamedExpr, ast.ListComp, ast.SetComp, ast.DictComp,
                                       ast.GeneratorExp)) for x in walk(fn.body)))


_OPAQUE = (ast.BoolOp, ast.IfExp, ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _statements(body, exprs):
    out = []
    for i, s in enumerate(body):
        for field in ("body", "orelse", "finalbody"):
            if isinstance(getattr(s, field, None), list) and not isinstance(s, (ast.FunctionDef, ast.ClassDef)):
                setattr(s, field, _statements(getattr(s, field), exprs))
        if isinstance(s, ast.Try):
            for h in s.handlers:
                h.body = _statements(h.body, exprs)
        if type(s).__name__ == "Match":
            out.extend(_statements(lower_match(s, exprs.ctx), exprs))
            continue
        if isinstance(s, ast.Delete) and all(isinstance(t, ast.Name) for t in s.targets) \
                and not _read_later(body[i + 1:], {t.id for t in s.targets}):
            continue
        if isinstance(s, ast.For) and isinstance(s.iter, ast.Name) and exprs.kinds.get(s.iter.id) is ast.Dict:
            s.iter = ast.copy_location(ast.Call(ast.Attribute(s.iter, "keys", ast.Load()), [], []), s.iter)
        if anno.get(s, "partial", False):
            continue                     # its calls are written out in full (_Exprs.visit_Call)
        if isinstance(s, ast.Raise) and s.exc is not None and s.cause is None:
            s = _raise_call(s, exprs.ctx)
        s = _lambda_def(s, exprs)
        expanded = container_statement(s, exprs)
        if expanded is not None:
            out.extend(_statements(expanded, exprs))
            continue
        if exprs.hoists and not isinstance(s, (ast.While, ast.FunctionDef)):
            nodes = list(walk(s))
            if any(_ordering_call(n) for n in nodes):
                out.extend(_hoist_ordered_items(s, exprs))
                nodes = list(walk(s))
            else:                        # what _hoist_ordered_items does to s without such calls
                for n in nodes:
                    anno.drop(n, "opaque")
            if any(isinstance(n, _WALRUS_OR_OPAQUE) for n in nodes):
                out.extend(_hoist_walrus(s))
        out.append(_rewrite_exprs(s, exprs))
    return out


def _rewrite_exprs(s, exprs):
    if isinstance(s, ast.FunctionDef):
        s.body = _statements(s.body, exprs)
        return s
    for field in s._fields:
        value = getattr(s, field, None)
        if isinstance(value, ast.expr):
            setattr(s, field, exprs.visit(value))
        elif isinstance(value, list) and value and all(isinstance(v, ast.expr) for v in value):
            setattr(s, field, [exprs.visit(v) for v in value])
    return s


def _raise_call(s, ctx):
    ref = ctx.ref(raise_, "raise_")
    ctx.parsed.scope.closure.setdefault(ref.id, raise_)
    return ast.copy_location(ast.Expr(ast.copy_location(ast.Call(ref, [s.exc], []), s)), s)


def _read_later(rest, names):
    return any(isinstance(n, ast.Name) and n.id in names for s in rest for n in walk(s))


def _lambda_def(s, exprs):
    if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) \
            and isinstance(s.value, ast.Lambda):
        ret = ast.copy_location(ast.Return(s.value.body), s.value.body)
        fn = ast.FunctionDef(s.targets[0].id, s.value.args, [ret], [], None)
        if "type_params" in ast.FunctionDef._fields:
            fn.type_params = []
        return ast.fix_missing_locations(ast.copy_location(fn, s))
    return s


def _heads(s):
    if isinstance(s, (ast.If, ast.For)):
        return [s.test if isinstance(s, ast.If) else s.iter]
    return [v for f, v in ast.iter_fields(s) if isinstance(v, ast.expr)]


def _ordering_call(node):
    """A call _hoist_ordered_items may hoist items of (when the name is the builtin)."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("sorted", "max", "min")


_WALRUS_OR_OPAQUE = (ast.NamedExpr,) + _OPAQUE   # _hoist_walrus hoists the first, marks inside the others
# Without these (nor an ordering call) in the function, neither hoist has anything to do: the
# statements _statements makes (match lowered, container edits) bring none of their own
_MAY_HOIST = _WALRUS_OR_OPAQUE + (ast.Match,)


def _hoist_ordered_items(s, exprs):
    """``sorted([a * 2, f(b)])`` (also ``max``/``min`` with ``key=``): items that are not names are
    assigned to temporaries before the statement, so _Exprs._ordered can pick them by index.
    Only when nothing evaluated before them in the statement is a call or ``:=`` (the order of
    effects stays as written)."""
    out = []
    for head in _heads(s):
        order = _in_order(head)
        for k, node in enumerate(order):
            if not (isinstance(node, ast.Call) and not anno.get(node, "opaque", False) and node.args
                    and (exprs._builtin(node.func, "sorted") or any(kw.arg == "key" for kw in node.keywords)
                         and (exprs._builtin(node.func, "max") or exprs._builtin(node.func, "min")))):
                continue
            items = node.args[0] if len(node.args) == 1 else None
            if not (literal_seq(items) and not all(simple(e) for e in items.elts)):
                continue
            inside = {id(n) for n in walk(node)}
            before = [n for n in order[:k] if id(n) not in inside]
            if any(isinstance(n, (ast.Call, ast.NamedExpr, ast.Await, ast.Yield)) for n in before):
                continue
            for j, e in enumerate(items.elts):
                if not simple(e):
                    tmp = exprs.ctx.namer.claim("item")
                    out.append(ast.copy_location(ast.Assign([ast.Name(tmp, ast.Store())], e), s))
                    items.elts[j] = ast.copy_location(ast.Name(tmp, ast.Load()), e)
    for node in walk(s):
        anno.drop(node, "opaque")
    return [ast.fix_missing_locations(a) for a in out]


def _hoist_walrus(s):
    """Assignments for the ``:=`` in statement ``s`` that can run before it (``s`` is changed)."""
    heads = [v for f, v in ast.iter_fields(s) if isinstance(v, ast.expr)]
    if isinstance(s, (ast.If, ast.For)):
        heads = [s.test if isinstance(s, ast.If) else s.iter]
    out = []
    for head in heads:
        order = _in_order(head)
        for k, node in enumerate(order):
            if not isinstance(node, ast.NamedExpr) or anno.get(node, "opaque", False):
                continue
            name = node.target.id
            before = order[:k]
            if any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load) for n in before):
                continue
            if any(n is not node and isinstance(n, ast.NamedExpr) for n in walk(node.value)):
                continue
            out.append(ast.copy_location(ast.Assign([ast.Name(name, ast.Store())], node.value), node))
            _replace(head, node, ast.copy_location(ast.Name(name, ast.Load()), node))
            if head is node:
                for f, v in ast.iter_fields(s):
                    if v is node:
                        setattr(s, f, ast.copy_location(ast.Name(name, ast.Load()), node))
    return out


def _in_order(node, opaque=False):
    """Nodes of an expression in evaluation order (children before parents, left to right)."""
    out = []
    op = opaque or isinstance(node, _OPAQUE)
    for child in ast.iter_child_nodes(node):
        out.extend(_in_order(child, op))
    if opaque:
        anno.put(node, "opaque", True)
    out.append(node)
    return out


def _replace(root, old, new):
    for parent in walk(root):
        for f, v in ast.iter_fields(parent):
            if v is old:
                setattr(parent, f, new)
            elif isinstance(v, list):
                for j, item in enumerate(v):
                    if item is old:
                        v[j] = new
