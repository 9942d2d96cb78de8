"""``m = a + b`` and ``m = a * k`` on local lists, written as appends (used by literals.py).

``+`` and ``*`` on Python lists have no derivative rule (a cotangent of a list adds slot by
slot), so a join of list literals and names only ever bound to lists becomes the appends that
build the same list: items read one by one, whose derivatives are known.

* ``m = l + [a, b]`` -> ``t1 = a; t2 = b; m = []; for v in l: m.append(v); m.append(t1); ...``
* ``l = l + [a]``    -> ``t1 = a; l.append(t1)`` (the list grows in place: adjoin refuses a later
  change of a list another name shares, so no one can see the difference)
* ``m = l * 2``      -> ``m = []; for v in l: m.append(v); for v in l: m.append(v)``

Every item of a literal is evaluated first, as Python does before it joins.
"""

import ast

__all__ = ["listy", "joined_list"]


def _operands(node, kinds, out):
    """The operands of a join (list literals and list names), in order, or None."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _operands(node.left, kinds, out) and _operands(node.right, kinds, out)
    if isinstance(node, ast.List) and not any(isinstance(e, ast.Starred) for e in node.elts):
        out.append(node)
        return True
    if isinstance(node, ast.Name) and kinds.get(node.id) is ast.List:
        out.append(node)
        return True
    return False


def _join(value, kinds):
    """(operands, repetitions) of ``a + b + ...`` or ``(a + ...) * k`` / ``k * (...)``, or None."""
    reps = 1
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Mult):
        left, right = value.left, value.right
        if isinstance(left, ast.Constant) and type(left.value) is int:
            left, right = right, left
        if not (isinstance(right, ast.Constant) and type(right.value) is int):
            return None
        value, reps = left, max(right.value, 0)
    elif not (isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add)):
        return None
    ops = []
    return (ops, reps) if _operands(value, kinds, ops) else None


def listy(value, kinds):
    """Is ``value`` a join of list literals and list names (so its result is a list)?"""
    return _join(value, kinds) is not None


def joined_list(s, exprs):
    """The statements for ``name = <join>`` (None when ``s`` is not one)."""
    if not (isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)):
        return None
    join = _join(s.value, exprs.kinds)
    if join is None:
        return None
    ops, reps = join
    target = s.targets[0].id
    names = [op.id for op in ops if isinstance(op, ast.Name)]
    in_place = bool(ops) and isinstance(ops[0], ast.Name) and ops[0].id == target and reps >= 1
    if target in names and not in_place:
        return None                      # `l = [a] + l`: left as written (refused when it runs)
    namer = exprs.ctx.namer
    out, items = [], {}
    for op in ops:                       # literal items first, in order
        if isinstance(op, ast.List):
            for e in op.elts:
                if not isinstance(e, ast.Constant):
                    tmp = namer.claim("item")
                    out.append(_assign(tmp, e, s))
                    items[id(e)] = ast.Name(tmp, ast.Load())
    load = lambda n: ast.Name(n, ast.Load())  # noqa: E731
    length = None
    if in_place and (names.count(target) > 1 or reps > 1):
        length = namer.claim("length")
        out.append(_assign(length, ast.Call(load("len"), [load(target)], []), s))
    if not in_place:
        out.append(_assign(target, ast.List([], ast.Load()), s))
    for rep in range(reps):
        for j, op in enumerate(ops):
            if in_place and rep == 0 and j == 0:
                continue                 # the list itself, already there
            if isinstance(op, ast.List):
                out += [_append(target, items.get(id(e), e), s) for e in op.elts]
                continue
            k = namer.claim("item")
            if op.id == target:          # the list's own items as they were before the join
                it = ast.Call(load("range"), [load(length)], [])
                value = ast.Subscript(load(target), load(k), ast.Load())
            else:
                it, value = load(op.id), load(k)
            out.append(ast.copy_location(ast.For(ast.Name(k, ast.Store()), it, [_append(target, value, s)], []), s))
    return [ast.fix_missing_locations(x) for x in out]


def _assign(name, value, like):
    return ast.copy_location(ast.Assign([ast.Name(name, ast.Store())], value), like)


def _append(name, value, like):
    call = ast.Call(ast.Attribute(ast.Name(name, ast.Load()), "append", ast.Load()), [value], [])
    return ast.copy_location(ast.Expr(ast.copy_location(call, like)), like)
