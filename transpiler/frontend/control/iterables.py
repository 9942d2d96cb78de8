"""Generators and iterator objects, written as the lists they produce (a desugaring step).

A generator is differentiated as the sequence it yields: its body becomes one that appends each
yielded value to a fresh list and returns the list (``as_list_body``), and a call of it is taken as
``items_(gen(...))`` (its list) where all its items are taken anyway -- a ``for`` loop or a comprehension over it,
``list``/``tuple``/``sum``/``sorted``/``min``/``max``/``zip``/``enumerate``/``map``/``filter`` of it,
``yield from`` it, or a name it is kept in that is iterated once later, with nothing it was made from
changed in between.  Running the generator to its end before the loop runs gives the same items:
its body sees the same values (it reads its arguments, which nothing changes meanwhile, and module
globals, which a differentiated function cannot change).  Any other use (``next(g)``, iterating it
twice, passing it on) is refused at its line (frontend/calls/sites.py).

Iterator objects kept in a name (``z = zip(a, b)``, ``m = map(f, xs)``, ``e = enumerate(..)``,
``it = d.items()``, ``itertools.product(..)``) become lists the same way when the name is iterated once,
right after; ``itertools.product``, ``combinations``, ``permutations``,
``combinations_with_replacement``, ``chain`` and ``chain.from_iterable`` become comprehensions whose
items are read by position (the positions are plain ints, found without a gradient).
"""

import ast
import builtins
import copy
import inspect
import itertools

from ...core import annotations as anno
from ...core.astutil import walk
from ..calls.primal_helpers import items_

__all__ = ["rewrite", "as_list_body", "is_generator", "generator_error"]

_CONSUMERS = {list, tuple, sum, sorted, min, max, set, frozenset, any, all, dict, zip, enumerate, map, filter}
_ITERATORS = {zip, map, filter, enumerate, reversed}
_POSITIONS = {itertools.product, itertools.combinations, itertools.permutations,
              itertools.combinations_with_replacement}
_CHAINS = {itertools.chain, itertools.chain.from_iterable}


def is_generator(node):
    """Does a FunctionDef yield (in its own body, not in functions nested in it)?"""
    todo = list(node.body) if isinstance(node.body, list) else []
    while todo:
        n = todo.pop()
        if isinstance(n, (ast.Yield, ast.YieldFrom)):
            return True
        if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(n))
    return False


def generator_error(norm, node, name):
    return norm.error(f"the generator made by {name}(...) is used here in a way adjoin cannot follow: it is "
                      "differentiated as the list of items it yields, which is exact only where all its items "
                      "are taken once", node,
                      f"iterate it with a for loop or a comprehension, or take list({name}(...)) and use the list")


# --- a generator's body as a list-building body ------------------------------------------------------
def as_list_body(body, namer, loc):
    """``body`` of a generator function with each ``yield v`` an append to a fresh list, each ``yield
    from it`` a loop of appends, and each ``return`` (and the end) returning the list."""
    items = namer.claim("yielded")
    out = _Yields(items, namer).rewrite_body(body)
    first = ast.copy_location(ast.Assign([ast.Name(items, ast.Store())], ast.List([], ast.Load())), loc)
    last = ast.copy_location(ast.Return(ast.Name(items, ast.Load())), loc)
    return ast.fix_missing_locations(ast.Module([first] + out + [last], [])).body


class _Yields(ast.NodeTransformer):
    def __init__(self, items, namer):
        self.items, self.namer = items, namer

    def rewrite_body(self, body):
        return [s for st in body for s in self._statement(st)]

    def _append(self, value, loc):
        call = ast.Call(ast.Attribute(ast.Name(self.items, ast.Load()), "append", ast.Load()),
                        [value if value is not None else ast.Constant(None)], [])
        return ast.copy_location(ast.Expr(ast.copy_location(call, loc)), loc)

    def _statement(self, st):
        if isinstance(st, ast.Expr) and isinstance(st.value, ast.Yield):
            return [self._append(st.value.value, st)]
        if isinstance(st, ast.Expr) and isinstance(st.value, ast.YieldFrom):
            v = self.namer.claim("item")
            loop = ast.For(ast.Name(v, ast.Store()), st.value.value, [self._append(ast.Name(v, ast.Load()), st)], [],
                           None)
            return [ast.copy_location(loop, st)]
        if isinstance(st, ast.Return):       # (a copy: an early return is a value kept beside the list)
            ret = ast.copy_location(ast.Return(ast.Call(ast.Name("list", ast.Load()),
                                                        [ast.Name(self.items, ast.Load())], [])), st)
            if st.value is not None:     # the value a generator returns goes to StopIteration: evaluated, dropped
                return [ast.copy_location(ast.Expr(st.value), st), ret]
            return [ret]
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return [st]
        for field in ("body", "orelse", "finalbody"):
            if isinstance(getattr(st, field, None), list):
                setattr(st, field, self.rewrite_body(getattr(st, field)) or [ast.Pass()])
        for h in getattr(st, "handlers", ()):
            h.body = self.rewrite_body(h.body) or [ast.Pass()]
        for case in getattr(st, "cases", ()):
            case.body = self.rewrite_body(case.body) or [ast.Pass()]
        return [st]


# --- calls of generators and iterator objects kept in names -------------------------------------------
def rewrite(body, ctx, local_generators=()):
    """``body`` with generator calls whose items are all taken written ``items_(gen(...))`` (the call marked
    ``generator``), iterator objects kept in a name and iterated once made lists, and itertools'
    combinatorics made comprehensions.  ``local_generators``: names of generator functions defined in
    the enclosing function (nested ``def``s that yield)."""
    found = _Finder(ctx, set(local_generators) | {s.name for s in _own_defs(body) if is_generator(s)})
    module = ast.Module(body, [])
    parents = {}
    for node in walk(module):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    calls = [n for n in walk(module) if isinstance(n, ast.Call)]
    if not any(found.kind(c) for c in calls):
        return body                      # (most functions: nothing to rewrite)
    for call in calls:
        kind = found.kind(call)
        if kind is None:
            continue
        parent = parents.get(call)
        if kind == "generator":
            if _taken_whole(found, call, parent, parents) or _kept_once(found, call, parent, parents, module):
                anno.put(call, "generator", True)
                _replace(parent, call, _call_of(ctx, items_, "items_", call))
        elif kind in ("iterator", "view") and not _kept(parent, call):
            continue          # (loops walk zip, enumerate, dict views themselves: control/loops.py; desugar.py
            #                    writes dict(zip(keys, values)), map and filter)
        elif _iterated(found, call, parent) or _kept_once(found, call, parent, parents, module):
            _replace(parent, call, _as_list(ctx, found, call, kind))
        elif kind != "view" and _kept(parent, call) and _read_after(parent, parents):
            name = parent.targets[0].id
            raise ctx.error(f"the iterator kept in `{name}` is read more than once, inside a loop, or after something "
                            "it reads changes: Python's iterator would be spent after one pass, or see the change",
                            call, f"iterate it once right after making it, or keep a list: `{name} = list(...)`")
    return body


def _kept(parent, call):
    return isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name) \
        and parent.value is call


def _read_after(parent, parents):
    """Is the name ``parent`` (an assignment) binds read anywhere in its function?"""
    node = parent
    while parents.get(node) is not None and not isinstance(node, (ast.FunctionDef, ast.Lambda)):
        node = parents[node]
    name = parent.targets[0].id
    return any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load) for n in walk(node))


def _own_defs(body):
    todo = list(body)
    while todo:
        s = todo.pop()
        if isinstance(s, ast.FunctionDef):
            yield s
            continue
        if isinstance(s, (ast.ClassDef, ast.AsyncFunctionDef)):
            continue
        todo.extend(c for c in ast.iter_child_nodes(s) if isinstance(c, ast.stmt))


class _Finder:
    def __init__(self, ctx, local_generators):
        self.ctx, self.scope, self.local = ctx, ctx.parsed.scope, local_generators
        self.stored = ctx.user_stored

    def resolve(self, func):
        root = func
        while isinstance(root, ast.Attribute):
            root = root.value
        if not isinstance(root, ast.Name) or root.id in self.stored:
            return None
        try:
            return self.scope.evaluate(func)
        except Exception:
            return None

    def kind(self, call):
        """"generator", "iterator", "positions", "chain", "view", or None."""
        func = call.func
        if isinstance(func, ast.Name) and func.id in self.local:
            return "generator"
        if isinstance(func, ast.Attribute) and func.attr in ("items", "keys", "values") and not call.args \
                and not call.keywords and isinstance(func.value, ast.Name) and func.value.id in self.stored:
            return "view"
        fn = self.resolve(func)
        if fn is None:
            return None
        if inspect.isgeneratorfunction(fn) and not getattr(fn, "__module__", "").startswith(("numpy", "scipy")):
            return "generator"
        try:
            if fn in _ITERATORS:
                return "iterator"
            if fn in _POSITIONS:
                return "positions"
            if fn in _CHAINS:
                return "chain"
        except TypeError:
            return None
        return None

    def builtin(self, func):
        try:
            return self.resolve(func) in _CONSUMERS
        except TypeError:
            return False


def _iterated(found, call, parent):
    """Is ``call`` the iterable of a ``for`` or a comprehension, or what a consumer takes whole (a builtin
    such as ``list``/``sum``, or a function of yours that iterates that parameter once)?"""
    if isinstance(parent, (ast.For, ast.comprehension)) and parent.iter is call:
        return True
    if not (isinstance(parent, ast.Call) and call in parent.args):
        return False
    return found.builtin(parent.func) or _iterates_parameter(found.resolve(parent.func), parent.args.index(call))


def _iterates_parameter(fn, index):
    """Does user function ``fn`` read its positional parameter ``index`` exactly once, as what a ``for``
    loop (without ``break``), a comprehension or a builtin consumer iterates, outside any loop?"""
    fn = getattr(fn, "__func__", fn)
    if not inspect.isfunction(fn) or fn.__code__.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS) \
            or (fn.__module__ or "").startswith(("numpy", "scipy", "runtime", "transpiler")):
        return False
    code = fn.__code__
    if index >= code.co_argcount:
        return False
    name = code.co_varnames[index]
    from ..effects.checks import function_tree
    fdef = function_tree(fn)
    if fdef is None:
        return False
    parents = {}
    for node in walk(fdef):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    reads = [n for n in walk(fdef) if isinstance(n, ast.Name) and n.id == name]
    if len(reads) != 1 or not isinstance(reads[0].ctx, ast.Load):
        return False
    user = parents.get(reads[0])
    if isinstance(user, ast.For) and (user.iter is not reads[0] or _breaks(user)):
        return False
    if not (isinstance(user, (ast.For, ast.comprehension)) and user.iter is reads[0]
            or isinstance(user, ast.Call) and reads[0] in user.args and isinstance(user.func, ast.Name)
            and getattr(builtins, user.func.id, None) in _CONSUMERS and user.func.id not in code.co_varnames):
        return False
    return _holder(reads[0], fdef.body, parents) is not None


def _taken_whole(found, call, parent, parents):
    if isinstance(parent, ast.YieldFrom):
        return True
    if isinstance(parent, ast.For) and parent.iter is call and _breaks(parent):
        return False                     # a break may stop it early (an endless generator would not end)
    return _iterated(found, call, parent)


def _breaks(loop):
    todo = list(loop.body)
    while todo:
        n = todo.pop()
        if isinstance(n, ast.Break):
            return True
        if not isinstance(n, (ast.For, ast.While, ast.FunctionDef, ast.Lambda, ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(n))
    return False


def _kept_once(found, call, parent, parents, module):
    """``name = call`` where ``name`` is read once after it, as what a loop, a comprehension or a consumer
    iterates, not inside a loop that does not also make it, and nothing the call reads is rebound or
    changed in between."""
    if not (isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name)
            and parent.value is call):
        return False
    name = parent.targets[0].id
    block = parents.get(parent)
    body = next((getattr(block, f) for f in ("body", "orelse", "finalbody") if parent in getattr(block, f, ())), None)
    if body is None:
        return False
    rest = body[body.index(parent) + 1:]
    loads = [n for st in rest for n in walk(st) if isinstance(n, ast.Name) and n.id == name]
    if len(loads) != 1 or not isinstance(loads[0].ctx, ast.Load):
        return False
    use = loads[0]
    user = parents.get(use)
    if not _iterated(found, use, user):
        return False
    if isinstance(user, ast.For) and _breaks(user) and found.kind(call) == "generator":
        return False
    holder = _holder(use, rest, parents)
    if holder is None:
        return False
    read = {n.id for n in walk(call) if isinstance(n, ast.Name)}
    between = rest[:rest.index(holder) + 1]
    return not _changes(between, read, holder)


def _holder(use, rest, parents):
    """The statement of ``rest`` that reads ``use`` once each time it runs, else None (the read sits
    in a loop body, a comprehension's repeated part, a function or a lambda)."""
    statements = set(map(id, rest))
    node = use
    while id(node) not in statements:
        up = parents.get(node)
        if up is None or isinstance(up, (ast.While, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            return None
        if isinstance(up, (ast.For, ast.comprehension)) and node is not up.iter:
            return None
        if isinstance(up, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)) and node is not up.generators[0]:
            return None
        node = up
    return node


def _changes(stmts, names, holder):
    """Do ``stmts`` rebind or change in place (a write, a mutating method, a call of a function of
    yours) any of ``names``?  (In ``holder``, only what runs before the iteration counts: its body.)"""
    from ..effects.checks import MUTATING
    for st in stmts:
        nodes = list(walk(st.iter)) if st is holder and isinstance(st, ast.For) else list(walk(st))
        for n in nodes:
            if isinstance(n, ast.Name) and n.id in names and not isinstance(n.ctx, ast.Load):
                return True
            if isinstance(n, (ast.Subscript, ast.Attribute)) and not isinstance(n.ctx, ast.Load) \
                    and _root(n) in names:
                return True
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in MUTATING \
                    and _root(n.func.value) in names:
                return True
            if isinstance(n, ast.Call) and any(_root(a) in names for a in n.args) and not _plain_call(n):
                return True
    return False


def _plain_call(call):
    """A call that cannot change its arguments (a builtin or a numpy function written by name)."""
    f = call.func
    while isinstance(f, ast.Attribute):
        f = f.value
    return isinstance(f, ast.Name) and (f.id in ("np", "numpy", "math") or hasattr(builtins, f.id))


def _root(node):
    while isinstance(node, (ast.Subscript, ast.Attribute, ast.Starred)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _replace(parent, old, new):
    for field, value in ast.iter_fields(parent):
        if value is old:
            setattr(parent, field, new)
        elif isinstance(value, list):
            for i, item in enumerate(value):
                if item is old:
                    value[i] = new


def _call_of(ctx, fn, name, arg):
    ref = ctx.ref(fn, name)
    ctx.parsed.scope.closure.setdefault(ref.id, fn)
    return ast.copy_location(ast.Call(ref, [arg], []), arg)


def _name(ctx, base):
    return ctx.namer.claim(base)


def _as_list(ctx, found, call, kind):
    """An iterator object's items as a list (comprehension)."""
    load = lambda n: ast.Name(n, ast.Load())  # noqa: E731
    store = lambda n: ast.Name(n, ast.Store())  # noqa: E731
    if kind == "view":
        d, attr = call.func.value, call.func.attr
        key = _name(ctx, "key")
        elt = {"keys": load(key), "values": ast.Subscript(copy.copy(d), load(key), ast.Load()),
               "items": ast.Tuple([load(key), ast.Subscript(copy.copy(d), load(key), ast.Load())], ast.Load())}[attr]
        new = ast.ListComp(elt, [ast.comprehension(store(key), copy.copy(d), [], 0)])
    elif kind == "positions":
        new = _positions(ctx, found, call)
        if new is None:
            return call                  # (left as written: refused later)
    elif kind == "chain":
        fn = found.resolve(call.func)
        part, v = _name(ctx, "part"), _name(ctx, "item")
        parts = call.args[0] if fn == itertools.chain.from_iterable else ast.List(list(call.args), ast.Load())
        new = ast.ListComp(load(v), [ast.comprehension(store(part), parts, [], 0),
                                     ast.comprehension(store(v), load(part), [], 0)])
    else:                                # zip, map, filter, enumerate, reversed kept in a name
        v = _name(ctx, "item")
        new = ast.ListComp(load(v), [ast.comprehension(store(v), call, [], 0)])
    return ast.fix_missing_locations(ast.copy_location(new, call))


def _ref(ctx, fn, name):
    ref = ctx.ref(fn, name)
    ctx.parsed.scope.closure.setdefault(ref.id, fn)
    return ref


def _constant(node, default=None):
    if node is None:
        return default
    return node.value if isinstance(node, ast.Constant) and type(node.value) is int else None


def _positions(ctx, found, call):
    """``itertools.product(a, b)`` as ``[(pool0[i[0]], pool1[i[1]]) for pool0 in [a] for pool1 in [b]
    for i in list(product(range(len(pool0)), range(len(pool1))))]`` (``combinations``, ``permutations``,
    ``combinations_with_replacement`` of one pool and a constant length alike): the positions are plain
    ints, the items are read by index, so their derivatives are those of item reads."""
    fn = found.resolve(call.func)
    kw = {k.arg: k.value for k in call.keywords}
    if any(isinstance(a, ast.Starred) for a in call.args) or None in kw:
        return None
    load = lambda n: ast.Name(n, ast.Load())  # noqa: E731
    if fn is itertools.product:
        pools = list(call.args)
        r = _constant(kw.get("repeat"), 1)
        if r is None or set(kw) - {"repeat"} or not pools:
            return None
        source = [j % len(pools) for j in range(len(pools) * r)]
    else:
        pools = call.args[:1]
        length = (call.args[1:] or [kw.get("r")])[0]
        r = _constant(length)
        if len(pools) != 1 or r is None or len(call.args) > 2 or set(kw) - {"r"}:
            return None
        source = [0] * r
    names = [_name(ctx, "pool") for _ in pools]
    ranges = [ast.Call(_ref(ctx, range, "range"), [ast.Call(_ref(ctx, len, "len"), [load(n)], [])], [])
              for n in names]
    if fn is itertools.product:
        spec = ast.Call(_ref(ctx, fn, "product"), ranges, [ast.keyword("repeat", ast.Constant(r))] if r != 1 else [])
    else:
        spec = ast.Call(_ref(ctx, fn, fn.__name__), ranges + [ast.Constant(r)], [])
    order = ast.Call(_ref(ctx, list, "list"), [spec], [])
    anno.put(order, "order", True)
    index = _name(ctx, "index")
    elt = ast.Tuple([ast.Subscript(load(names[p]), ast.Subscript(load(index), ast.Constant(j), ast.Load()), ast.Load())
                     for j, p in enumerate(source)], ast.Load())
    plain = (ast.Name, ast.List, ast.Tuple, ast.Subscript, ast.Attribute)
    gens = [ast.comprehension(ast.Name(n, ast.Store()), ast.List(
        [pool if isinstance(pool, plain) else ast.Call(_ref(ctx, list, "list"), [pool], [])], ast.Load()), [], 0)
        for n, pool in zip(names, pools)]
    return ast.ListComp(elt, gens + [ast.comprehension(ast.Name(index, ast.Store()), order, [], 0)])
