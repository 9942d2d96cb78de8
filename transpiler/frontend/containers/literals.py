"""What is known about locals bound to literals, and statement rewrites on local containers
(used by desugar.py): a name only ever assigned list (dict) literals is a list (dict), so its
``.extend``/``+=``/``.update``/``.setdefault`` can be written as appends and item assignments;
one bound once and then only read has a known length and keys."""

import ast
import copy
import functools

from ...core import annotations as anno
from ...core.astutil import walk
from .list_joins import listy

__all__ = ["simple", "const_int", "literal_seq", "kinds", "partials", "container_statement"]


def simple(node):
    """A pure expression that evaluates to the same value when evaluated twice or not at all."""
    if isinstance(node, (ast.Name, ast.Constant)):
        return True
    if isinstance(node, ast.Subscript):
        return simple(node.value) and simple(node.slice)
    if isinstance(node, ast.Attribute):
        return simple(node.value)
    return False


def const_int(node):
    """The int a slice bound stands for (None when absent), or False."""
    if node is None:
        return None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        v = const_int(node.operand)
        return -v if v not in (None, False) else False
    return node.value if isinstance(node, ast.Constant) and type(node.value) is int else False


def literal_seq(node):
    return isinstance(node, (ast.List, ast.Tuple)) and not any(isinstance(e, ast.Starred) for e in node.elts)



def kinds(nodes):
    """(``name -> ast.List/ast.Dict`` for locals only ever assigned list/dict literals or
    comprehensions, ``name -> literal`` for those assigned once and then only read by subscript
    or splatted: their length and keys are known).  ``nodes``: the nodes of the function
    (contexts and operators may be left out)."""
    values, other = {}, set()
    for n in nodes:             # one walk gathers everything (a walk per name is quadratic)
        cls = n.__class__
        if cls is ast.Assign:
            for t in n.targets:
                if isinstance(t, ast.Name):
                    values.setdefault(t.id, []).append(n.value)
        if cls in _BINDERS:
            other.update(_stored(n))
    kinds = {}
    for name, vals in values.items():
        if name in other:
            continue
        if all(isinstance(v, (ast.Dict, ast.DictComp)) for v in vals):
            kinds[name] = ast.Dict
    # lists: names only ever bound to list literals, comprehensions and joins of lists (l = l + [v],
    # m = l * 2); the largest such set, so a name may join itself
    lists = {name for name, vals in values.items() if name not in other and name not in kinds
             and all(isinstance(v, (ast.List, ast.ListComp, ast.BinOp)) for v in vals)}
    changed = True
    while changed:
        assumed = dict(kinds, **{name: ast.List for name in lists})
        keep = {name for name in lists if all(not isinstance(v, ast.BinOp) or listy(v, assumed)
                                              for v in values[name])}
        changed, lists = keep != lists, keep
    kinds.update({name: ast.List for name in lists})
    literal = {name: vals[0] for name, vals in values.items() if name not in other and len(vals) == 1
               and (literal_seq(vals[0]) or isinstance(vals[0], ast.Dict) and all(
                   isinstance(k, ast.Constant) and isinstance(k.value, str) and k.value.isidentifier()
                   for k in vals[0].keys))}
    return kinds, _only_read(nodes, literal) if literal else {}


def _only_read(nodes, literal):
    """The items of ``literal`` (name -> the literal bound to it once) whose name is then only
    read by subscript or splatted, never written into."""
    starred, read, loads, written = set(), set(), {}, set()
    for n in nodes:
        cls = n.__class__
        if cls is ast.Name:
            if isinstance(n.ctx, ast.Load):
                loads.setdefault(n.id, []).append(n)
        elif cls is ast.Starred:
            starred.add(id(n.value))
        elif cls is ast.Call:
            starred.update(id(k.value) for k in n.keywords if k.arg is None)
        elif cls is ast.Subscript:
            if isinstance(n.ctx, ast.Load):
                read.add(id(n.value))
            elif isinstance(n.value, ast.Name):
                written.add(n.value.id)
        elif cls is ast.AugAssign and isinstance(n.target, ast.Name):
            written.add(n.target.id)         # l += [..] grows the list: its length is no longer the literal's
    return {name: v for name, v in literal.items() if name not in written
            and all(id(u) in starred or id(u) in read for u in loads.get(name, ()))}


_BINDERS = {ast.AugAssign, ast.AnnAssign, ast.For, ast.comprehension, ast.NamedExpr, ast.With, ast.arguments,
            ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef, ast.Assign}   # the nodes _stored reads


def _stored(n):
    """Names bound by node ``n`` other than by plain ``=``."""
    if isinstance(n, ast.AugAssign) and isinstance(n.op, ast.Add) and literal_seq(n.value) \
            and isinstance(n.value, ast.List):
        return []                            # a += [..] keeps a list a list
    if isinstance(n, (ast.AugAssign, ast.AnnAssign)) and isinstance(n.target, ast.Name):
        return [n.target.id]
    if isinstance(n, (ast.For, ast.comprehension)):
        return [t.id for t in walk(n.target) if isinstance(t, ast.Name)]
    if isinstance(n, ast.NamedExpr):
        return [n.target.id]
    if isinstance(n, (ast.With,)):
        return [t.id for i in n.items if i.optional_vars is not None for t in walk(i.optional_vars)
                if isinstance(t, ast.Name)]
    if isinstance(n, ast.arguments):
        return [a.arg for a in n.posonlyargs + n.args + n.kwonlyargs] + \
            [a.arg for a in (n.vararg, n.kwarg) if a is not None]
    if isinstance(n, (ast.Import, ast.ImportFrom)):
        return [(a.asname or a.name).split(".")[0] for a in n.names]
    if isinstance(n, (ast.FunctionDef, ast.ClassDef)):
        return [n.name]
    if isinstance(n, ast.Assign):
        return [t.id for tgt in n.targets if not isinstance(tgt, ast.Name) for t in walk(tgt)
                if isinstance(t, ast.Name) and isinstance(t.ctx, ast.Store)]
    return []


def partials(fn, scope):
    """``name -> (callable, args, keywords)`` for ``name = functools.partial(g, ...)`` statements
    whose name is only ever called and whose parts are names bound once (or constants)."""
    found = [s for s in fn.body if isinstance(s, ast.Assign) and len(s.targets) == 1
             and isinstance(s.targets[0], ast.Name) and isinstance(s.value, ast.Call) and _is_partial(s.value.func, scope)]
    if not found:
        return {}                        # (most functions: no walk)
    nodes = list(walk(fn))
    stores = {}
    for n in nodes:
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
            stores[n.id] = stores.get(n.id, 0) + 1
    called = {id(n.func) for n in nodes if isinstance(n, ast.Call)}
    out = {}
    for s in found:
        if stores.get(s.targets[0].id) != 1:
            continue
        call, name = s.value, s.targets[0].id
        parts = call.args + [k.value for k in call.keywords]
        if not call.args or any(isinstance(a, ast.Starred) for a in call.args) \
                or any(k.arg is None for k in call.keywords) or not all(simple(p) for p in parts):
            continue
        if any(stores.get(n.id, 0) > 1 for p in parts for n in walk(p) if isinstance(n, ast.Name)):
            continue
        uses = [n for n in nodes if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)]
        if all(id(u) in called for u in uses):
            out[name] = (call.args[0], call.args[1:], call.keywords)
            anno.put(s, "partial", True)
    return out


def _is_partial(func, scope):
    try:
        return scope.evaluate(func) is functools.partial
    except Exception:
        return False



def container_statement(s, exprs):
    """``a.extend([..])``/``a += [..]`` on a local list -> appends; ``d.update({..})``/``d.update(k=v)``
    on a local dict -> item assignments; ``v = d.setdefault(k, e)`` -> ``if k not in d``; ``del c[i]`` ->
    ``c.pop(i)``; ``del lst[i:j]`` -> ``lst[i:j] = []`` (None: other)."""
    kinds = exprs.kinds
    if isinstance(s, ast.Delete) and all(isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name)
                                         and not isinstance(t.slice, (ast.Slice, ast.Tuple)) for t in s.targets):
        return [_delete(t, kinds.get(t.value.id) is ast.Dict, s) for t in s.targets]
    if isinstance(s, ast.Delete) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Subscript) \
            and isinstance(s.targets[0].value, ast.Name) and kinds.get(s.targets[0].value.id) is ast.List \
            and isinstance(s.targets[0].slice, ast.Slice) and s.targets[0].slice.step is None:
        t = s.targets[0]         # del lst[i:j] of a local list: the same as lst[i:j] = [] (a slice write)
        target = ast.Subscript(ast.Name(t.value.id, ast.Load()), t.slice, ast.Store())
        return [ast.fix_missing_locations(ast.copy_location(ast.Assign([target], ast.List([], ast.Load())), s))]
    if isinstance(s, ast.AugAssign) and isinstance(s.op, ast.Add) and isinstance(s.target, ast.Name) \
            and kinds.get(s.target.id) is ast.List and literal_seq(s.value):
        return _appends(s.target.id, s.value.elts, s, exprs)
    value = s.value if isinstance(s, (ast.Expr, ast.Assign)) else None
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
            and isinstance(value.func.value, ast.Name) and not any(isinstance(a, ast.Starred) for a in value.args)):
        return None
    name, meth, args, kws = value.func.value.id, value.func.attr, value.args, value.keywords
    if name not in exprs.local:
        return None                      # a module's function (`tangent.pop(stack)`), not a local's method
    if meth == "pop" and kinds.get(name) is ast.Dict:
        anno.put(value, "dict_pop", True)               # structures.method_statement: a dict's pop, not a list's
    if isinstance(s, ast.Assign) and meth == "pop" and len(args) <= 2 and not kws:
        return _pop_value(s, name, args, exprs, kinds.get(name) is ast.Dict)
    if isinstance(s, ast.Expr) and kinds.get(name) is ast.List and meth == "extend" and len(args) == 1 \
            and not kws and literal_seq(args[0]):
        return _appends(name, args[0].elts, s, exprs)
    if isinstance(s, ast.Expr) and kinds.get(name) is ast.Dict and meth == "update":
        pairs = []
        if len(args) == 1 and isinstance(args[0], ast.Dict) and None not in args[0].keys:
            pairs = list(zip(args[0].keys, args[0].values))
        elif args:
            return None
        if any(k.arg is None for k in kws):
            return None
        pairs += [(ast.Constant(k.arg), k.value) for k in kws]
        return [_setitem(name, k, v, s) for k, v in pairs]
    if kinds.get(name) is ast.Dict and meth == "setdefault" and len(args) == 2 and not kws and simple(args[0]) \
            and (isinstance(s, ast.Expr) or (len(s.targets) == 1 and isinstance(s.targets[0], ast.Name))):
        tmp = exprs.ctx.namer.claim("default")
        out = [ast.copy_location(ast.Assign([ast.Name(tmp, ast.Store())], args[1]), s),
               ast.copy_location(ast.If(ast.Compare(copy.deepcopy(args[0]), [ast.NotIn()], [ast.Name(name, ast.Load())]),
                                        [_setitem(name, copy.deepcopy(args[0]), ast.Name(tmp, ast.Load()), s)], []), s)]
        if isinstance(s, ast.Assign):
            out.append(ast.copy_location(ast.Assign(s.targets, ast.Subscript(ast.Name(name, ast.Load()),
                                                                             copy.deepcopy(args[0]), ast.Load())), s))
        return [ast.fix_missing_locations(x) for x in out]
    return None


def _pop_value(s, name, args, exprs, is_dict):
    """``v = c.pop(i)`` -> ``v = c[i]; c.pop(i)``; ``v = d.pop(k, e)`` -> ``if k in d: v = d[k];
    d.pop(k)`` ``else: v = e`` (the statement ``c.pop(i)`` is structures.method_statement's)."""
    out = []
    key = args[0] if args else ast.Constant(-1)
    if not simple(key):
        tmp = exprs.ctx.namer.claim("key")
        out.append(ast.copy_location(ast.Assign([ast.Name(tmp, ast.Store())], key), s))
        key = ast.Name(tmp, ast.Load())
    read = ast.copy_location(ast.Assign(s.targets, ast.Subscript(ast.Name(name, ast.Load()), key, ast.Load())), s)
    pop = ast.copy_location(ast.Expr(ast.copy_location(ast.Call(ast.Attribute(
        ast.Name(name, ast.Load()), "pop", ast.Load()), [copy.deepcopy(key)], []), s)), s)
    anno.put(pop.value, "dict_pop", is_dict or len(args) == 2)
    if len(args) < 2:
        out += [read, pop]
    else:
        other = ast.copy_location(ast.Assign(copy.deepcopy(s.targets), args[1]), s)
        out.append(ast.copy_location(ast.If(ast.Compare(copy.deepcopy(key), [ast.In()], [ast.Name(name, ast.Load())]),
                                            [read, pop], [other]), s))
    return [ast.fix_missing_locations(x) for x in out]


def _delete(target, is_dict, like):
    """``del c[i]`` -> ``c.pop(i)`` (structures.method_statement: a new version of the list or dict)."""
    call = ast.Call(ast.Attribute(ast.Name(target.value.id, ast.Load()), "pop", ast.Load()), [target.slice], [])
    anno.put(call, "dict_pop", is_dict)
    return ast.fix_missing_locations(ast.copy_location(ast.Expr(ast.copy_location(call, target)), like))


def _appends(name, elts, like, exprs):
    """``name.extend([a, b])`` as appends.  Python evaluates the whole literal before the first
    item is added, so items that are not constants are first bound to temporaries (``l.extend([u,
    l[-1]])`` reads the last item before ``u`` is appended)."""
    if len(elts) < 2 or all(isinstance(e, ast.Constant) for e in elts[1:]):
        return [_append(name, e, like) for e in elts]
    out, items = [], []
    for e in elts:
        if isinstance(e, ast.Constant):
            items.append(e)
            continue
        tmp = exprs.ctx.namer.claim("item")
        out.append(ast.fix_missing_locations(ast.copy_location(ast.Assign([ast.Name(tmp, ast.Store())], e), like)))
        items.append(ast.Name(tmp, ast.Load()))
    return out + [_append(name, e, like) for e in items]


def _append(name, value, like):
    call = ast.Call(ast.Attribute(ast.Name(name, ast.Load()), "append", ast.Load()), [value], [])
    return ast.fix_missing_locations(ast.copy_location(ast.Expr(ast.copy_location(call, like)), like))


def _setitem(name, key, value, like):
    target = ast.Subscript(ast.Name(name, ast.Load()), key, ast.Store())
    return ast.fix_missing_locations(ast.copy_location(ast.Assign([target], value), like))
