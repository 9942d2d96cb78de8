"""Effects that adjoin cannot model, found before they turn into a silently wrong gradient.

The front end gives every write a new single-assignment version (containers/writes.py), which is
exact only while no other name sees the object written.  Most aliasing is tracked where it
arises (``Emitter.shared``); this module holds the checks that look at a whole call or a
whole callee:

* ``out=`` arguments write into an existing array: refused.
* a mutating method (``.append``, ``.sort``...) on an inner container reached by subscript or
  attribute (``grid[1].append(v)``): refused -- the outer container would change too.
* a user function that changes what it is given (``lst[0] = v``, ``lst.append(v)``,
  ``obj.w = v``, ``np.add(x, 1, out=x)``, or passing it on to such a function): calling it
  with a local value is refused, since adjoin would not see the change.
* numpy functions that write into an argument (``np.copyto``, ``np.put``, ``np.add.at``, an
  ``out`` passed by position...): refused.
* mutating methods inside an expression (``z = l.append(v)``, a lambda's body), module-level
  containers changed by a bound method (``G.append(v)``) or by a callee: refused.
* ``l[i] += v`` and ``x += v`` whose object may be seen elsewhere: Python changes an array
  (or list, dict) in place there, while adjoin makes a new value.  Whether the object is
  mutable is known only when the code runs, so ``in_place_guard`` emits a check that raises
  the located TranspileError then (floats, which ``+=`` rebinds, pass); so does
  ``row_view_guard`` before a write into a 2-d array a row of which was read (a view).
  effects/pruning.py removes every check the whole function shows to be unnecessary.
"""

import ast
import inspect
import sys
import textwrap
import types

import numpy as np

from runtime.rules import registry

from ...core import annotations as anno
from ...core.astutil import walk

__all__ = ["check_call", "check_inner_method", "mutated_parameters", "in_place_guard", "row_view_guard", "MUTATING",
           "function_tree", "returned_arguments"]

# methods that change a list, dict, set or array in place
MUTATING = {"append", "extend", "insert", "pop", "remove", "clear", "update", "setdefault", "popitem",
            "sort", "reverse", "fill", "resize", "put", "itemset", "__setitem__", "__iadd__", "add",
            "discard", "setflags", "partition", "byteswap"}

_CACHE = {}
_OUTSIDE = "outside "      # marks a module global or enclosing variable a callee changes (not a parameter)


def _root(node):
    """The name a chain of subscripts and attributes starts from (``x`` in ``x[0].w``), else None."""
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def function_tree(fn):
    """The FunctionDef of ``fn``'s source, or None when it cannot be read."""
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
    for n in walk(fdef):
        targets = n.targets if isinstance(n, ast.Assign) else \
            [n.target] if isinstance(n, (ast.AugAssign, ast.AnnAssign)) else \
            n.targets if isinstance(n, ast.Delete) else []
        for t in targets:
            for sub in walk(t):
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
                    out.update(r for r in map(_root, walk(k.value)) if r)
            if isinstance(f, ast.Name) and f.id in ("setattr", "delattr") and n.args:
                r = _root(n.args[0])
                if r:
                    out.add(r)
            callee = resolve_call(f)
            if callee is not None:
                changed = mutated_parameters(callee)
                out.update(c for c in changed if c.startswith(_OUTSIDE))     # module state, passed up
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


def _local_names(code):
    """Every local name of ``code`` and of the functions and lambdas defined in it."""
    out = set(code.co_varnames) | set(code.co_cellvars)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            out |= _local_names(c)
    return out


def _params(fn):
    code = fn.__code__
    return list(code.co_varnames[:code.co_argcount + code.co_kwonlyargcount])


def mutated_parameters(fn, _depth=0):
    """The parameters of user function ``fn`` that it may change in place (a frozenset)."""
    fn = getattr(fn, "__func__", fn)
    if not isinstance(fn, types.FunctionType) or (fn.__module__ or "").startswith(("numpy", "runtime", "transpiler")):
        return frozenset()
    if registry.lookup(fn) is not None:
        return frozenset()          # a primitive (scipy.special.logsumexp): its rules say what it does
    key = fn.__code__
    if key in _CACHE:
        return _CACHE[key]
    _CACHE[key] = frozenset()       # recursion: assume nothing while looking
    fdef = function_tree(fn) if _depth < 8 else None
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

    params, local = set(_params(fn)), _local_names(fn.__code__)
    written = {p for p in _written_roots(fdef, resolve_call)     # `np.sort(x)` is not a `.sort()` of np
               if p in params or p in local or not isinstance(fn.__globals__.get(p), types.ModuleType)}
    changed = frozenset(p if p in params or p.startswith(_OUTSIDE) else _OUTSIDE + p
                        for p in written if p in params or p not in local)
    _CACHE[key] = changed
    return changed


_VIEW_CALLS = {"reshape", "transpose", "ravel", "squeeze", "expand_dims", "swapaxes", "moveaxis", "asarray",
               "asanyarray", "atleast_1d", "atleast_2d", "atleast_3d", "broadcast_to", "flip", "view", "diagonal",
               "real", "imag", "split", "array_split", "copy", "astype", "ascontiguousarray"}
_RETURNED = {}


def _returned_parameters(fn, held):
    """The parameters of user function ``fn`` whose object (or a part or view of it) it may return
    (``return lst``, ``return x[1:]``, ``return obj.w``, ``return x.T``); with ``held``, also those
    a returned list or tuple holds (``return a, x``)."""
    fn = getattr(fn, "__func__", fn)
    if not isinstance(fn, types.FunctionType) or (fn.__module__ or "").startswith(("numpy", "runtime", "transpiler")) \
            or hasattr(fn, "__wrapped__"):
        return frozenset()      # (a wrapper's source is the wrapped function's)
    key = (fn.__code__, held)
    if key not in _RETURNED:
        fdef = function_tree(fn)
        _RETURNED[key] = frozenset() if fdef is None else _tree_returned(fdef, set(_params(fn)), held)
    return _RETURNED[key]


def _roots(node, held):
    """Names whose object ``node`` may be, or be part or a view of (with ``held``: or hold)."""
    if isinstance(node, ast.Name):
        return {node.id}
    if isinstance(node, (ast.Subscript, ast.Attribute, ast.Starred)):
        return _roots(node.value, held)
    if isinstance(node, ast.IfExp):
        return _roots(node.body, held) | _roots(node.orelse, held)
    if isinstance(node, (ast.Tuple, ast.List)):
        return set().union(*(_roots(e, held) for e in node.elts)) if held and node.elts else set()
    if isinstance(node, ast.NamedExpr):
        return _roots(node.value, held)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr != "copy":
        if node.func.attr in _VIEW_CALLS or not isinstance(node.func.value, ast.Name) or node.func.value.id != "np":
            out = _roots(node.func.value, held)         # x.T(), x.reshape(..): any method may return x
            if node.func.attr in _VIEW_CALLS and node.args:
                out |= _roots(node.args[0], held)       # np.reshape(x, s)
            return out
    return set()


def _tree_returned(fdef, params, held):
    holds = {p: {p} for p in params}        # local name -> parameters it may be (part of)
    changed = True
    while changed:
        changed = False
        for n in walk(fdef):
            if isinstance(n, ast.Assign):
                found = {q for r in _roots(n.value, held) for q in holds.get(r, ())}
                for t in n.targets:
                    for name in ([t.id] if isinstance(t, ast.Name) else
                                 [e.id for e in getattr(t, "elts", []) if isinstance(e, ast.Name)]):
                        if not found <= holds.get(name, set()):
                            holds[name] = holds.get(name, set()) | found
                            changed = True
    return frozenset(q for n in walk(fdef) if isinstance(n, ast.Return) and n.value is not None
                     for r in _roots(n.value, held) for q in holds.get(r, ()))


def returned_arguments(fn, args, keywords, held=False):
    """The argument nodes of a call of ``fn`` whose object the call may return (or part or a view of
    it; with ``held``, or a list or tuple holding it)."""
    returned = _returned_parameters(fn, held)
    if not returned:
        return []
    params = _params(getattr(fn, "__func__", fn))
    offset = 1 if isinstance(fn, types.MethodType) else 0
    passed = [(params[i + offset] if i + offset < len(params) else None, a) for i, a in enumerate(args)]
    passed += [(k.arg, k.value) for k in keywords]
    return [a for p, a in passed if p in returned]


def _read_here(norm, name):
    """Does the function read module-level ``name`` other than to change it (``G.append(v)``)?
    A global only written (a log, a call counter) cannot change the gradient."""
    changed = {id(n.func.value) for n in walk(norm.parsed.node) if isinstance(n, ast.Call)
               and isinstance(n.func, ast.Attribute) and n.func.attr in MUTATING}
    return any(isinstance(n, ast.Name) and n.id == name and id(n) not in changed
               for n in walk(norm.parsed.node))


def check_call(norm, fn, node):
    """Refuse a call whose effect on its arguments adjoin would not see."""
    for k in node.keywords:
        if k.arg == "out" and not (isinstance(k.value, ast.Constant) and k.value.value is None):
            raise norm.error("`out=` writes the result into an existing array, which adjoin cannot follow",
                             k.value, "assign the result instead: `y = np.f(...)`")
    if fn is None and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATING \
            and _root(node.func.value) in norm.version:
        # a statement `l.append(v)` is containers/writes.py's; here the call is part of an expression
        # (`z = l.append(v)`, `y.sort()` in a lambda's body), whose change would be lost
        raise norm.error(f"`{ast.unparse(node.func)}(...)` changes `{_root(node.func.value)}` in place inside an "
                         "expression, which adjoin cannot follow", node,
                         f"call it as a statement of its own (`{ast.unparse(node.func)}(v)` on its line)"
                         if node.func.attr == "append" else
                         "build a new value instead (`v = l[-1]; l = l[:-1]` for a pop, `y = np.sort(y)`)")
    if fn is None and isinstance(node.func, ast.Attribute) and node.func.attr == "shuffle" and node.args:
        why = "`.shuffle(x)` reorders its argument"          # rng.shuffle(x) of a local generator
    else:
        why = _writes_argument(fn, node) if fn is not None else None
    if why:
        raise norm.error(f"{why}, changing an array in place, which adjoin cannot follow", node,
                         "compute a new array instead (np.where, np.concatenate, x.copy() then `x[i] = v`)")
    owner = getattr(fn, "__self__", None)
    if getattr(fn, "__name__", None) in MUTATING and isinstance(owner, (list, dict, set, np.ndarray)) \
            and _read_here(norm, _root(node.func)):
        raise norm.error(f"`{ast.unparse(node.func)}(...)` changes a module-level {type(owner).__name__} in "
                         "place, which adjoin cannot follow", node,
                         "keep the values in a local variable and return them")
    outside = sorted(c[len(_OUTSIDE):] for c in mutated_parameters(fn)
                     if c.startswith(_OUTSIDE) and _read_here(norm, c[len(_OUTSIDE):]))
    if outside:
        raise norm.error(f"{fn.__name__}() changes `{outside[0]}` in place, a module global or a variable of an "
                         "enclosing function, and adjoin cannot follow a change made inside another function",
                         node, f"make {fn.__name__}() return the new value instead")
    if fn is setattr or fn is delattr:
        raise norm.error(f"`{fn.__name__}` changes an attribute in place, which adjoin cannot follow", node,
                         "keep the value in a local variable")
    for a in returned_arguments(fn, node.args, node.keywords, held=True):
        # `m = ident(l)` may be `l` itself, `p, q = pair(l, ..)` holds it: a write through either
        # name would show through the other (emitter._view_base shares the result)
        current = norm.version.get(a.id) if isinstance(a, ast.Name) else None
        if isinstance(current, str):
            norm.shared.add(current)
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


# --- numpy functions that write into an argument --------------------------------------------
_NUMPY_WRITERS = {getattr(np, n) for n in ("copyto", "put", "place", "putmask", "fill_diagonal", "put_along_axis")
                  if hasattr(np, n)}        # and np.random.shuffle (numpy.random is loaded on first use)


def _random_shuffle(fn):
    """Is ``fn`` np.random.shuffle?  (Not before numpy.random is imported: nothing could name it.)"""
    random = sys.modules.get("numpy.random")
    return random is not None and fn in {random.shuffle}


def _writes_argument(fn, node):
    """Why calling numpy's ``fn`` as in ``node`` writes into an argument, else None."""
    try:
        if fn in _NUMPY_WRITERS or _random_shuffle(fn):
            return f"np.{fn.__name__}() writes into its first argument"
    except TypeError:           # an unhashable callable
        return None
    if getattr(fn, "__name__", None) == "at" and isinstance(getattr(fn, "__self__", None), np.ufunc):
        return f"np.{fn.__self__.__name__}.at() writes into its first argument"
    if getattr(fn, "__name__", None) in ("shuffle", "permuted") and isinstance(getattr(fn, "__self__", None),
                                                                               np.random.Generator):
        if fn.__name__ == "shuffle" or any(k.arg == "out" for k in node.keywords):
            return f"Generator.{fn.__name__}() writes into its argument"
    if isinstance(fn, np.ufunc):
        if len(node.args) > fn.nin:
            return f"the argument after np.{fn.__name__}'s {fn.nin} input(s) is its `out=` array"
        return None
    if (getattr(fn, "__module__", None) or "").startswith("numpy"):
        try:
            params = list(inspect.signature(fn).parameters.values())
        except (TypeError, ValueError):
            return None
        positional = []
        for p in params:            # those an argument given by position can reach (not after *args)
            if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
                break
            positional.append(p.name)
        if "out" in positional and positional.index("out") < len(node.args):
            return f"np.{fn.__name__}()'s argument {positional.index('out') + 1} is its `out=` array"
    return None


# --- `x += v` on an object that may be seen elsewhere: checked when the code runs ----------
_SYMBOL = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
           ast.Pow: "**", ast.MatMult: "@", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^",
           ast.LShift: "<<", ast.RShift: ">>"}
_IN_PLACE = {ast.Add: "__iadd__", ast.Sub: "__isub__", ast.Mult: "__imul__", ast.Div: "__itruediv__",
             ast.FloorDiv: "__ifloordiv__", ast.Mod: "__imod__", ast.Pow: "__ipow__",
             ast.MatMult: "__imatmul__", ast.BitAnd: "__iand__", ast.BitOr: "__ior__",
             ast.BitXor: "__ixor__", ast.LShift: "__ilshift__", ast.RShift: "__irshift__"}


class RunCheck:
    """Called by generated code where what Python would do depends on the type of a value, known
    only when the code runs: raises the TranspileError built at the user's line when ``test``
    finds the case adjoin does not model (``test`` returns what it found, else None)."""

    def __init__(self, test, error):
        self.test, self.error = test, error

    def __call__(self, *values):
        found = self.test(*values)
        if found is not None:
            raise self.error(found)

    def __repr__(self):
        return f"<adjoin run-time check: {self.test.__doc__}>"


def _emit_check(norm, test, error, args, node, kind):
    obj = RunCheck(test, error)
    obj.kind = kind             # "item", "name" or "row": what pruning.prune_checks may prove safe ("alias": kept)
    name = "row_view_check" if kind == "row" else "in_place_check"
    call = ast.copy_location(ast.Call(norm.ctx.ref(obj, name), list(args), []), node)
    anno.put(call, "prim", obj)
    norm.emit(ast.Expr(call), node)


def in_place_guard(norm, old, op, node, container=None, why="that object may also be reached from elsewhere "
                   "(another name or container)", prunable=True):
    """Before ``old op= v`` becomes ``old op v``: a check that ``old`` is not an object ``op=``
    changes in place (an array, list or dict; an item of an array is written back exactly)."""
    method = _IN_PLACE.get(type(op))
    if method is None:
        return
    text = ast.unparse(node).splitlines()[0]
    target = ast.unparse(node.target)

    def changed_in_place(value, holder=None):
        """`x op= v` would change x in place"""
        if isinstance(holder, np.ndarray) or not hasattr(type(value), method):
            return None
        return "array" if isinstance(value, np.ndarray) else type(value).__name__

    def error(kind):
        return norm.error(f"`{text}` changes {'an' if kind[0] in 'aeiou' else 'a'} {kind} in place, and {why}, "
                          "which adjoin cannot follow (it makes a new value)", node,
                          f"write a new value (`{target} = {target} {_SYMBOL[type(op)]} ...`), or take a copy first")

    _emit_check(norm, changed_in_place, error, [old] + ([container] if container is not None else []), node,
                "alias" if not prunable else "name" if container is None else "item")


def row_view_guard(norm, array, user, node):
    """Before a write into ``user`` after ``t = user[i]`` was read: on an array of two or more
    dimensions, ``t`` is a view of a row, which the write would change in Python too."""

    def row_views(value):
        """a write into an array whose rows were read"""
        if isinstance(value, np.ndarray) and value.ndim >= 2:
            return f"{value.ndim}-d array"
        return None

    def error(kind):
        return norm.error(f"`{user}` is a {kind} and a row of it was read before (`r = {user}[i]`): that row "
                          f"is a view, so this write would change it too, which adjoin cannot follow", node,
                          f"read a copy of the row (`r = {user}[i].copy()`), or index both at once (`{user}[i, j]`)")

    _emit_check(norm, row_views, error, [array], node, "row")
