"""Effects that adjoin cannot model, found before they turn into a silently wrong gradient.

The front end gives every write a new single-assignment version (structures.py), which is
exact only while no other name sees the object written.  Most aliasing is tracked where it
arises (``Emitter.shared``); this module holds the checks that look at a whole call or a
whole callee:

* ``out=`` arguments write into an existing array: refused.
* a mutating method (``.append``, ``.sort``...) on an inner container reached by subscript or
  attribute (``grid[1].append(v)``): refused -- the outer container would change too.
* a user function that changes what it is given (``lst[0] = v``, ``lst.append(v)``,
  ``obj.w = v``, ``np.add(x, 1, out=x)``, or passing it on to such a function): calling it
  with a local value is refused, since adjoin would not see the change.
"""

import ast
import inspect
import textwrap
import types

__all__ = ["check_call", "check_inner_method", "mutated_parameters", "MUTATING"]

# methods that change a list, dict, set or array in place
MUTATING = {"append", "extend", "insert", "pop", "remove", "clear", "update", "setdefault", "popitem",
            "sort", "reverse", "fill", "resize", "put", "itemset", "__setitem__", "__iadd__", "add",
            "discard", "setflags", "partition", "byteswap"}

_CACHE = {}


def _root(node):
    """The name a chain of subscripts and attributes starts from (``x`` in ``x[0].w``), else None."""
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _tree(fn):
    try:
        src = textwrap.dedent(inspect.getsource(fn))
        mod = ast.parse(src)
    except (OSError, TypeError, SyntaxError, IndentationError):
        return None
    for node in mod.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return node
    return None


def _written_roots(fdef, resolve_call):
    """Names changed in place inside ``fdef`` (by writes, mutating methods, out=, setattr, callees)."""
    out = set()
    for n in ast.walk(fdef):
        targets = n.targets if isinstance(n, ast.Assign) else \
            [n.target] if isinstance(n, (ast.AugAssign, ast.AnnAssign)) else \
            n.targets if isinstance(n, ast.Delete) else []
        for t in targets:
            for sub in ast.walk(t):
                if isinstance(sub, (ast.Subscript, ast.Attribute)) and isinstance(sub.ctx, (ast.Store, ast.Del)):
                    r = _root(sub)
                    if r:
                        out.add(r)
        if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
            out.add(n.target.id)        # `x += 1` changes an array argument in place
        if isinstance(n, ast.Call):
            f = n.func
            if isinstance(f, ast.Attribute) and f.attr in MUTATING:
                r = _root(f.value)
                if r:
                    out.add(r)
            for k in n.keywords:
                if k.arg == "out":
                    out.update(r for r in map(_root, ast.walk(k.value)) if r)
            if isinstance(f, ast.Name) and f.id in ("setattr", "delattr") and n.args:
                r = _root(n.args[0])
                if r:
                    out.add(r)
            callee = resolve_call(f)
            if callee is not None:
                changed = mutated_parameters(callee)
                if changed:
                    params = _params(callee)
                    for i, a in enumerate(n.args):
                        if i < len(params) and params[i] in changed:
                            r = _root(a)
                            if r:
                                out.add(r)
                    for k in n.keywords:
                        if k.arg in changed:
                            r = _root(k.value)
                            if r:
                                out.add(r)
    return out


def _params(fn):
    code = fn.__code__
    return list(code.co_varnames[:code.co_argcount + code.co_kwonlyargcount])


def mutated_parameters(fn, _depth=0):
    """The parameters of user function ``fn`` that it may change in place (a frozenset)."""
    fn = getattr(fn, "__func__", fn)
    if not isinstance(fn, types.FunctionType) or (fn.__module__ or "").startswith(("numpy", "runtime", "transpiler")):
        return frozenset()
    key = fn.__code__
    if key in _CACHE:
        return _CACHE[key]
    _CACHE[key] = frozenset()       # recursion: assume nothing while looking
    fdef = _tree(fn) if _depth < 8 else None
    if fdef is None:
        return frozenset()

    def resolve_call(f):
        if isinstance(f, ast.Name):
            obj = fn.__globals__.get(f.id)
            if obj is None and fn.__closure__:
                cells = dict(zip(fn.__code__.co_freevars, fn.__closure__))
                try:
                    obj = cells[f.id].cell_contents if f.id in cells else None
                except ValueError:
                    obj = None
            return obj if isinstance(obj, types.FunctionType) else None
        return None

    params = set(_params(fn))
    changed = frozenset(p for p in _written_roots(fdef, resolve_call) if p in params)
    _CACHE[key] = changed
    return changed


def check_call(norm, fn, node):
    """Refuse a call whose effect on its arguments adjoin would not see."""
    for k in node.keywords:
        if k.arg == "out" and not (isinstance(k.value, ast.Constant) and k.value.value is None):
            raise norm.error("`out=` writes the result into an existing array, which adjoin cannot follow",
                             k.value, "assign the result instead: `y = np.f(...)`")
    if fn is setattr or fn is delattr:
        raise norm.error(f"`{fn.__name__}` changes an attribute in place, which adjoin cannot follow", node,
                         "keep the value in a local variable")
    changed = mutated_parameters(fn)
    if not changed:
        return
    params = _params(getattr(fn, "__func__", fn))
    offset = 1 if isinstance(fn, types.MethodType) else 0
    passed = [(params[i + offset] if i + offset < len(params) else None, a) for i, a in enumerate(node.args)]
    passed += [(k.arg, k.value) for k in node.keywords]
    for p, a in passed:
        if p in changed and not (isinstance(a, ast.Constant)):
            raise norm.error(f"{fn.__name__}() changes its argument `{p}` in place, and adjoin cannot "
                             "follow a change made inside another function", a,
                             f"make {fn.__name__}() return the new value (`{p} = {fn.__name__}(...)`), "
                             "or write the change in this function")
    if isinstance(fn, types.MethodType) and "self" in changed:
        raise norm.error(f"{fn.__name__}() changes its object in place, and adjoin cannot follow a change "
                         "made inside another function", node, "return the new value instead")


def check_inner_method(norm, call):
    """``grid[1].append(v)``, ``obj.items.sort()``: a change to an inner container of a local."""
    f = call.func
    if isinstance(f, ast.Attribute) and f.attr in MUTATING and isinstance(f.value, (ast.Subscript, ast.Attribute)):
        r = _root(f.value)
        if r is not None and r in norm.version:
            raise norm.error(f"`{ast.unparse(f.value)}.{f.attr}(...)` changes a container inside `{r}` in "
                             "place, which adjoin cannot follow", call,
                             "build the inner list in its own variable, change that, then put it in place "
                             f"(`row = []; row.append(v); {r} = [.., row]`)")
