"""A list inside a list built in the function, changed in place at a constant position
(``grid[1].append(v)``, ``grid[1][0] = v``): read the inner list, change it, put it back -- exact
where nothing else holds the inner list or the outer one (else the usual refusals apply)."""

import ast
import copy

from . import writes
from .writes import INNER_METHODS

__all__ = ["inner_write"]


def _inner_place(s):
    """``grid[k]`` in ``grid[k].append(v)``, ``grid[k][j] = v``, ``grid[k][j] += v``, else None."""
    if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and isinstance(s.value.func, ast.Attribute) \
            and s.value.func.attr in INNER_METHODS and isinstance(s.value.func.value, ast.Subscript):
        return s.value.func.value
    targets = s.targets if isinstance(s, ast.Assign) and len(s.targets) == 1 else \
        [s.target] if isinstance(s, ast.AugAssign) else []
    if targets and isinstance(targets[0], ast.Subscript) and isinstance(targets[0].value, ast.Subscript):
        return targets[0].value
    return None


def inner_write(norm, s):
    """A change to a list inside a list built here item by item, at a constant position (``grid[1].append(v)``,
    ``grid[1][0] = v``): read the inner list, change it, put it back -- exact where nothing else holds the
    inner list (no name, no other container, no earlier read of ``grid``'s items) and nothing else holds
    ``grid``.  False where the statement is not of that form or those facts are not known (the usual
    refusals then apply)."""
    place = _inner_place(s)
    if place is None or not (isinstance(place.value, ast.Name) and isinstance(place.slice, ast.Constant)
                             and type(place.slice.value) is int):
        return False
    user = place.value.id
    current = norm.version.get(user)
    items = norm.tuples.get(current) if isinstance(current, str) else None
    if items is None or norm.kinds.get(current) is not ast.List or current in norm.shared \
            or current in norm.read_into or current in getattr(norm, "parameters", ()):
        return False
    k = place.slice.value
    if not -len(items) <= k < len(items):
        return False
    inner = items[k]
    if not (isinstance(inner, ast.Name) and norm.kinds.get(inner.id) is ast.List and inner.id in norm.tuples) \
            or sum(isinstance(e, ast.Name) and e.id == inner.id for e in items) != 1 \
            or any(v == inner.id for v in norm.version.values()) \
            or any(inner.id in {e.id for e in elts if isinstance(e, ast.Name)}
                   for name, elts in norm.tuples.items() if name != current and name in norm.version.values()):
        return False
    row = norm.ctx.namer.claim("row")
    norm.version[row] = inner.id
    norm.shared.discard(inner.id)        # (grid holds it, and gets it back below)
    try:
        new = copy.deepcopy(s)
        holder = _inner_place(new)
        for n in ast.walk(new):
            for field, value in ast.iter_fields(n):
                if value is holder:
                    setattr(n, field, ast.copy_location(ast.Name(row, ast.Load()), holder))
        norm.statement(new)
        changed = norm.version[row]
    finally:
        norm.version.pop(row, None)
        norm.shared.add(inner.id)
    target = ast.copy_location(ast.Subscript(ast.Name(user, ast.Load()), ast.Constant(k), ast.Store()), place)
    writes.store_item(norm, target, ast.Name(changed, ast.Load()))
    now = norm.version[user]                 # still known item by item: the next such write may follow
    if now != current and now not in norm.tuples:
        norm.tuples[now] = [ast.Name(changed, ast.Load()) if i == k % len(items) else e for i, e in enumerate(items)]
        norm.kinds[now] = ast.List
    return True
