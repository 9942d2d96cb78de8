"""Namedtuples and dataclasses made inside the function and used only as records (desugar.py).

``p = Point(a, b)`` where ``Point`` is a namedtuple or a dataclass with the generated
``__init__``, and ``p`` is then only read by field (``p.x``), by index (namedtuples) or copied
with ``p._replace(y=v)``: ``p`` is written as the tuple ``(a, b)`` and ``p.x`` as ``p[0]`` -- the
same values, so the same derivatives.  A record that escapes (returned, passed on, a method
called on it) is left as written (and refused later at its line).  ``a, b = Point(..)`` unpacks
the tuple directly.
"""

import ast

from ...core.astutil import walk
from ..containers.literals import simple
from ..traversal import Transformer, statements

__all__ = ["rewrite_records"]


def rewrite_records(body, scope):
    """``body`` with record-only namedtuples/dataclasses written as tuples."""
    assigns = [s for s in statements(body) if isinstance(s, ast.Assign)]
    fields, values = _records(body, assigns, scope)
    if not fields and not any(_unpacked(s, scope) for s in assigns):
        return body                      # (most functions: nothing to rewrite)
    return [_Records(fields, values, scope).visit(s) for s in body]


def _unpacked(node, scope):
    """Is ``node`` ``a, b = Cls(..)`` of a namedtuple (_Records.visit_Assign)?"""
    if not (isinstance(node, ast.Assign) and isinstance(node.targets[0], (ast.Tuple, ast.List))):
        return False
    made = _constructed(node.value, scope)
    return made is not None and issubclass(made[0], tuple)


def _fields_of(cls):
    """Field names in order when ``cls(...)`` just stores its arguments, else None."""
    import dataclasses      # (loaded on first use: import transpiler need not pay for it)
    if isinstance(cls, type) and issubclass(cls, tuple) and hasattr(cls, "_fields"):
        return list(cls._fields), dict(getattr(cls, "_field_defaults", {}))
    if dataclasses.is_dataclass(cls) and isinstance(cls, type):
        params = getattr(cls, "__dataclass_params__", None)
        if params is None or not params.init or hasattr(cls, "__post_init__") or "__init__" in _own(cls):
            return None
        fs = dataclasses.fields(cls)
        if any(not f.init or f.default_factory is not dataclasses.MISSING for f in fs):
            return None
        return [f.name for f in fs], {f.name: f.default for f in fs if f.default is not dataclasses.MISSING}
    return None


def _own(cls):
    return {k for base in cls.__mro__[:-1] if getattr(base, "__dataclass_params__", None) is None for k in vars(base)}


def _constructed(call, scope):
    """(class, tuple literal) for ``Cls(..)`` of a record class with arguments in field order."""
    if not isinstance(call, ast.Call) or any(isinstance(a, ast.Starred) for a in call.args) \
            or any(k.arg is None for k in call.keywords):
        return None
    try:
        cls = scope.evaluate(call.func)
    except Exception:
        return None
    info = _fields_of(cls)
    if info is None:
        return None
    names, defaults = info
    if len(call.args) > len(names):
        return None
    given = dict(zip(names, call.args))
    for k in call.keywords:
        if k.arg in given or k.arg not in names:
            return None
        given[k.arg] = k.value
    order = [k.arg for k in call.keywords]
    if order != sorted(order, key=names.index) and not all(simple(k.value) for k in call.keywords):
        return None                      # a different evaluation order would be visible
    elts = []
    for n in names:
        if n in given:
            elts.append(given[n])
        elif n in defaults and isinstance(defaults[n], (int, float, complex, str, bool, type(None))):
            elts.append(ast.Constant(defaults[n]))
        else:
            return None
    return cls, ast.Tuple(elts, ast.Load())


def _records(body, assigns, scope):
    """name -> field names, and id(Assign) -> (class, tuple) for the records kept as tuples
    (``assigns``: the assignments in ``body``, nested ones included, in ``ast.walk``'s order)."""
    stores, found = {}, {}
    for n in assigns:
        if len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            made = _constructed(n.value, scope)
            if made is not None:
                found[n.targets[0].id] = (made[0], n)
    if not found:
        return {}, {}                    # (most functions: no walk of their expressions)
    nodes = list(walk(ast.Module(body, [])))
    for n in nodes:
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
            stores[n.id] = stores.get(n.id, 0) + 1
    for n in nodes:                   # q = p._replace(..) of a record is a record too
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) \
                and _replace_of(n.value, found):
            found[n.targets[0].id] = (found[n.value.func.value.id][0], n)
    ok_uses = set()
    for n in nodes:
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id in found:
            names = _fields_of(found[n.value.id][0])[0]
            if n.attr in names and isinstance(n.ctx, ast.Load):
                ok_uses.add(id(n.value))
        if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id in found \
                and isinstance(n.ctx, ast.Load) and issubclass(found[n.value.id][0], tuple):
            ok_uses.add(id(n.value))
        if _replace_of(n, found):
            ok_uses.add(id(n.func.value))
    out = {}
    for name, (cls, assign) in found.items():
        uses = [n for n in nodes if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)]
        if stores.get(name) == 1 and all(id(u) in ok_uses for u in uses):
            out[name] = cls
    changed = True
    while changed:                        # a _replace of a record that escapes escapes too
        changed = False
        for name in list(out):
            for n in nodes:
                if _replace_of(n, {name: 0}) and not any(
                        isinstance(a, ast.Assign) and a.value is n and isinstance(a.targets[0], ast.Name)
                        and a.targets[0].id in out for a in nodes):
                    del out[name]
                    changed = True
                    break
    return {k: _fields_of(c)[0] for k, c in out.items()}, {id(found[k][1]): found[k][0] for k in out}


def _replace_of(node, records):
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "_replace"
            and isinstance(node.func.value, ast.Name) and node.func.value.id in records and not node.args
            and all(k.arg is not None for k in node.keywords))


class _Records(Transformer):
    def __init__(self, fields, values, scope):
        self.fields, self.values, self.scope = fields, values, scope

    def visit_Assign(self, node):
        if id(node) in self.values and isinstance(node.value, ast.Call) and node.targets[0].id in self.fields:
            if _replace_of(node.value, self.fields):
                src = node.value.func.value.id
                new = {k.arg: k.value for k in node.value.keywords}
                elts = [self.visit(new[f]) if f in new else ast.Subscript(ast.Name(src, ast.Load()), ast.Constant(i),
                                                                           ast.Load())
                        for i, f in enumerate(self.fields[src])]
                node.value = ast.copy_location(ast.Tuple(elts, ast.Load()), node.value)
                return node
            made = _constructed(node.value, self.scope)
            node.value = ast.copy_location(self.visit(made[1]), node.value)
            return node
        if isinstance(node.targets[0], (ast.Tuple, ast.List)):
            made = _constructed(node.value, self.scope)
            if made is not None and issubclass(made[0], tuple):       # a, b = Point(..)
                node.value = ast.copy_location(self.visit(made[1]), node.value)
                return node
        self.generic_visit(node)
        return node

    def visit_Attribute(self, node):
        self.generic_visit(node)
        if isinstance(node.value, ast.Name) and node.value.id in self.fields and isinstance(node.ctx, ast.Load):
            i = self.fields[node.value.id].index(node.attr)
            return ast.copy_location(ast.Subscript(node.value, ast.Constant(i), ast.Load()), node)
        return node

    def visit_Lambda(self, node):
        return node
