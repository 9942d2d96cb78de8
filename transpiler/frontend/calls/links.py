"""A function of yours that changes what it is given, inlined (calls/nested.py): which parameters it
changes in place, and the caller's variable each such parameter stands for, so that the function's
writes are new versions of that variable -- as the one object is in Python.  ``p += v`` is in place for
an array or list and a new value for a number: ``write_back`` lets the code decide when it runs.
"""

import ast
import types

from ...core import annotations as anno
from ..source import scopes

__all__ = ["changed_parameters", "arguments_given", "arguments_changed", "links", "linked_now", "write_back"]


def changed_parameters(node):
    """Parameters a function (FunctionDef or Lambda) changes in place (``p[i] = v``, ``p.attr = v``,
    ``p.append(v)`` and the other mutating methods, ``p[i] += v``), those it rebinds, and those it
    gives ``p += v`` (in place for an array or list, a new value for a number or tuple): the
    in-place methods (``__iadd__``, ...) per parameter."""
    from ..effects.checks import MUTATING, _IN_PLACE
    params = scopes.parameters(node)
    changed, rebound, augmented = set(), set(), {}
    for n in ast.walk(node) if not isinstance(node.body, list) else [m for st in node.body for m in ast.walk(st)]:
        if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) and n.target.id in params:
            augmented.setdefault(n.target.id, set()).add(_IN_PLACE.get(type(n.op), "?"))
            continue
        targets = n.targets if isinstance(n, ast.Assign) else [n.target] if isinstance(n, (ast.AugAssign,
                                                                                           ast.AnnAssign)) else []
        for t in targets:
            if isinstance(t, (ast.Subscript, ast.Attribute)):
                root = _root_name(t)
                if root in params:
                    changed.add(root)
            for sub in ast.walk(t):
                if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store) and sub.id in params:
                    rebound.add(sub.id)
        if isinstance(n, (ast.For, ast.comprehension, ast.withitem, ast.NamedExpr)):
            target = getattr(n, "target", None) or getattr(n, "optional_vars", None)
            rebound |= {t.id for t in ast.walk(target) if isinstance(t, ast.Name)} & params if target else set()
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in MUTATING:
            root = _root_name(n.func.value)
            if root in params:
                changed.add(root)
    return changed, rebound, augmented


def arguments_given(fdef, call, params):
    """The caller's variables ``call`` passes to ``fdef``'s parameters ``params`` (by position or keyword)."""
    a = fdef.args
    positional = [p.arg for p in a.posonlyargs + a.args]
    given = [(positional[i] if i < len(positional) else None, x) for i, x in enumerate(call.args)]
    given += [(k.arg, k.value) for k in call.keywords]
    return {_root_name(x) for p, x in given if p in params and _root_name(x) is not None}


def arguments_changed(norm, call):
    """The caller's variables a call of a module-level function of yours passes to parameters it changes
    in place (effects/checks.mutated_parameters); empty for anything else."""
    from ..effects.checks import mutated_parameters, function_tree
    try:
        fn = norm.resolve(call.func)
    except Exception:            # noqa: BLE001  (not resolvable here: the call itself will say why)
        return set()
    changed = mutated_parameters(fn) if isinstance(fn, types.FunctionType) else frozenset()
    fdef = function_tree(fn) if changed else None
    return arguments_given(fdef, call, changed) if fdef is not None else set()


def _root_name(node):
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def links(norm, local, binding, outer, node, name, prefix):
    """Parameter -> the caller's variable, for each parameter the function changes in place that is
    given a variable of the caller's (a list or array it owns): inlined, the function's writes are
    versions of that variable, as the one object is in Python.  Refused, located, where that cannot
    be exact: the caller's value has a second name, the function also rebinds the parameter, or one
    value is passed twice."""
    changed, rebound, augmented = changed_parameters(local.node)
    if not changed and not augmented:
        return {}
    holders = {}
    for user, ver in outer.items():
        if isinstance(ver, str):
            holders.setdefault(ver, []).append(user)
    a = local.node.args
    positional = [p.arg for p in a.posonlyargs + a.args]
    given = {positional[i]: x for i, x in enumerate(list(prefix) + list(node.args)) if i < len(positional)}
    given.update((k.arg, k.value) for k in node.keywords)
    links = {}
    for pname in sorted(changed | set(augmented)):
        raw = given.get(pname)          # (the argument as written: a list variable is passed as itself)
        atom = binding.get(pname)
        if isinstance(raw, ast.Name) and isinstance(outer.get(raw.id), str):
            atom = binding[pname] = ast.Name(outer[raw.id], ast.Load())
        if not isinstance(atom, ast.Name) or anno.get(atom, "static", False):
            continue                     # a constant, an object made here (its fields are shared state), a literal
        users = holders.get(atom.id, [])
        if pname not in changed:
            # only `p += v`: in place for an array or list, a new local value for a number; linked where
            # exact (else the inlined `p += v` is checked when the code runs: statements.py)
            if pname not in rebound and len(users) == 1 and atom.id not in norm.shared \
                    and atom.id not in getattr(norm, "parameters", ()) \
                    and not any(a is not atom and isinstance(a, ast.Name) and a.id == atom.id for a in binding.values()):
                links[pname] = (users[0], tuple(sorted(augmented[pname])))
            continue
        what = f"{name}() changes its argument `{pname}` in place"
        if pname in rebound:
            raise norm.error(f"{what} and also assigns `{pname}` a new value, which adjoin cannot follow", node,
                             f"make {name}() either change `{pname}` or rebind it, not both")
        if len(users) != 1 or atom.id in norm.shared or any(a is not atom and isinstance(a, ast.Name) and a.id == atom.id
                                                           for a in binding.values()):
            raise norm.error(f"{what}, but the value passed has another name here (a copy, view, item or another "
                             "argument), which would change too", node,
                             "pass a copy (`x.copy()`, `list(x)`), or change the value through one name only")
        if atom.id in getattr(norm, "parameters", ()):
            raise norm.error(f"{what}: the value passed is an argument of the differentiated function, whose "
                             "caller's object would change in Python, but the gradient call works on its own copy",
                             node, f"copy it first (`{users[0]} = {users[0]}.copy()`, `list({users[0]})`) and pass "
                             "the copy")
        links[pname] = (users[0], None)
    return links


def linked_now(norm):
    """The parameters of the function being inlined that stand for a caller's variable (``links``)."""
    return getattr(norm, "linked", ())


def write_back(norm, node, pname, user, methods, before, after):
    """After an inlined call whose ``p += v`` changed its argument: the caller's ``user`` holds the new
    value where that was in place (an array, a list), its own value where it was a new value (a number)."""
    from .primal_helpers import in_place_
    if methods is None:
        norm.version[user] = after
        return
    test = ast.copy_location(ast.Call(norm.ctx.ref(in_place_, "in_place_"), [ast.Name(before, ast.Load())] +
                                      [ast.Constant(m) for m in methods], []), node)
    anno.put(test, "prim", in_place_)
    names = [norm.ctx.namer.claim(f"_{pname}_{part}") for part in ("inplace", "new", "old")]
    for n, ver in zip(names, (norm.temp(test, node).id, after, before)):
        norm.version[n] = ver
    load = lambda n: ast.copy_location(ast.Name(n, ast.Load()), node)  # noqa: E731
    chosen = norm.expr(ast.copy_location(ast.IfExp(load(names[0]), load(names[1]), load(names[2])), node))
    for n in names:
        norm.version.pop(n, None)
    norm.version[user] = norm.atom_name(chosen, node).id
