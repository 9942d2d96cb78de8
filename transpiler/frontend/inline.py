"""Nested ``def``s and lambdas, inlined where they are called (a normalize-time step).

A function defined inside the differentiated one usually reads the outer function's locals,
which are SSA values of the outer function: it cannot be transformed on its own.  So its
body is normalized again at each call, with its parameters bound to the call's atoms and
its locals given fresh names::

    def f(x, w):                          t1 = x * w          # h's parameter t is x
        h = lambda t: t * w       ->      y = t1 + 1.0
        return h(x) + 1.0

Free names read the outer variables' versions at the call, as Python's late-binding closures
do.  Defaults are evaluated where the function is defined.  A nested function that calls
itself, or is passed somewhere as a value, raises TranspileError (define it at module level:
module-level callees are differentiated separately and may recurse).
"""

import ast

from .restructure import Restructure

__all__ = ["define", "define_lambda", "call", "is_local_function", "own_names"]


class _Local:
    """A nested function: its node (FunctionDef or Lambda) and its evaluated defaults."""

    def __init__(self, node, defaults, kw_defaults):
        self.node, self.defaults, self.kw_defaults = node, defaults, kw_defaults


def _locals(norm):
    if not hasattr(norm, "local_fns"):
        norm.local_fns = {}
        norm.inlining = []
    return norm.local_fns


def is_local_function(norm, name):
    return name in getattr(norm, "local_fns", {})


def _record(norm, name, node):
    a = node.args
    defaults = [norm.expand(norm.expr(d)) for d in a.defaults]
    kw_defaults = [None if d is None else norm.expand(norm.expr(d)) for d in a.kw_defaults]
    _locals(norm)[name] = _Local(node, defaults, kw_defaults)
    norm.version.pop(name, None)


def define(norm, s):
    """``def h(...)`` inside the function: remember it for inlining at its calls."""
    if s.decorator_list:
        raise norm.error("a decorated nested function cannot be inlined", s,
                         "define it at module level")
    _record(norm, s.name, s)


def define_lambda(norm, target, lam):
    """``h = lambda ...``: remember it like a nested def."""
    _record(norm, target.id, lam)


def _bind(norm, local, call, name):
    """Parameter name -> atom for this call (positional, keywords, defaults, *args, **kwargs)."""
    a = local.node.args
    positional = a.posonlyargs + a.args
    args = [norm.argument(x) for x in call.args]
    keywords = {k.arg: norm.argument(k.value) for k in call.keywords}
    out = {}
    for p, atom in zip(positional, args):
        out[p.arg] = atom
    extra = args[len(positional):]
    if extra and a.vararg is None:
        raise norm.error(f"{name}() takes {len(positional)} positional argument(s) but "
                         f"{len(args)} were given", call, "pass the right number of arguments")
    if a.vararg is not None:
        out[a.vararg.arg] = ast.Tuple(extra, ast.Load())
    rest = {}
    names = {p.arg for p in positional + a.kwonlyargs}
    for k, atom in keywords.items():
        if k in out:
            raise norm.error(f"{name}() got multiple values for argument {k!r}", call, "pass it once")
        if k in names and k not in {p.arg for p in a.posonlyargs}:
            out[k] = atom
        elif a.kwarg is not None:
            rest[k] = atom
        else:
            raise norm.error(f"{name}() got an unexpected keyword argument {k!r}", call,
                             "use one of its parameter names")
    first_default = len(positional) - len(local.defaults)
    for i, p in enumerate(positional):
        if p.arg not in out:
            if i < first_default:
                raise norm.error(f"{name}() is missing the argument {p.arg!r}", call, "pass it")
            out[p.arg] = local.defaults[i - first_default]
    for p, d in zip(a.kwonlyargs, local.kw_defaults):
        if p.arg not in out:
            if d is None:
                raise norm.error(f"{name}() is missing the keyword argument {p.arg!r}", call, "pass it")
            out[p.arg] = d
    if a.kwarg is not None:
        out[a.kwarg.arg] = rest        # a dict of atoms: read with constant keys
    return out


def call(norm, node):
    """Inline the nested function called at ``node``; returns the call's value (an atom or tuple)."""
    name = node.func.id
    local = _locals(norm)[name]
    if local in norm.inlining:
        raise norm.error(f"the nested function {name}() calls itself", node,
                         f"define {name} at module level: module-level functions may recurse")
    binding = _bind(norm, local, node, name)
    outer = dict(norm.version)
    saved_locals = dict(norm.local_fns)
    norm.inlining.append(local)
    try:
        for pname, atom in binding.items():
            if isinstance(atom, dict):
                norm.kwarg_dicts = getattr(norm, "kwarg_dicts", {})
                stored = norm.store(pname)
                norm.kwarg_dicts[stored] = atom
                norm.assign(stored, ast.Constant(None), node)
                continue
            stored = norm.store(pname)
            norm.assign(stored, atom, node)
            if isinstance(atom, (ast.Tuple, ast.List)):
                norm.tuples[stored] = list(atom.elts)
                norm.kinds[stored] = type(atom)
                if isinstance(atom, ast.List):
                    norm.shared.add(stored)     # the caller's list itself: a write here would show there
        if isinstance(local.node, ast.Lambda):
            result = _returned(norm, norm.expr(local.node.body))
        else:
            result = _body(norm, local.node, Restructure)
        inner = norm.version
    finally:
        norm.inlining.pop()
        norm.version = outer
        norm.local_fns = saved_locals
    # a free variable changed in place inside (st.append(v) on the outer list): the outer name
    # now holds the new version, as the one list object does in Python
    own = own_names(local.node)
    for user, ver in inner.items():
        if user in outer and outer[user] != ver and user not in own:
            norm.version[user] = ver
    return result


def _returned(norm, atom):
    """A returned atom: a tuple variable as its elements, but a list stays the one list object
    (``m = get()`` returning the outer ``l`` is a second name for it, not a copy)."""
    if isinstance(atom, ast.Name) and norm.kinds.get(atom.id) is ast.List:
        return atom
    return norm.expand(atom)


def own_names(node):
    """The parameters and assigned names of a nested function: its locals, not the outer ones."""
    a = node.args
    own = {p.arg for p in a.posonlyargs + a.args + a.kwonlyargs}
    own |= {p.arg for p in (a.vararg, a.kwarg) if p is not None}
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            own.add(n.id)
    return own


def _body(norm, fdef, restructure):
    body = list(fdef.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]
    body = restructure(norm.ctx.namer).function_body(body, fdef)
    saved_src = norm.src
    try:
        for stmt in body:
            norm.src = stmt
            if isinstance(stmt, ast.Return):
                if stmt.value is None:
                    return ast.Constant(None)
                if isinstance(stmt.value, ast.Tuple):
                    return ast.Tuple([_returned(norm, norm.expr(e)) for e in stmt.value.elts], ast.Load())
                return _returned(norm, norm.expr(stmt.value))
            norm.statement(stmt)
    finally:
        norm.src = saved_src
    return ast.Constant(None)


def kwarg_item(norm, base, index):
    """``kwargs["k"]`` of an inlined function's ``**kwargs``: the atom passed as ``k=``."""
    table = getattr(norm, "kwarg_dicts", {})
    if isinstance(base, ast.Name) and base.id in table and isinstance(index, ast.Constant):
        items = table[base.id]
        if index.value not in items:
            raise norm.error(f"no keyword argument {index.value!r} was passed", index,
                             "pass it, or read it with a default elsewhere")
        return items[index.value]
    return None
