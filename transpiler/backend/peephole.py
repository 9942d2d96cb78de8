"""Small exact rewrites of generated code that rule templates leave behind in adjoint loops.

* ``b = a`` followed (in the same block, neither rebound in between) by ``a = b``: the second
  assignment changes nothing and goes.  The reverse pass writes this pair for a loop's
  carried value (``bx_2 = bx_1`` for the back edge, ``bx_1 = bx_2`` for ``x_2 = x_1 + ...``).
* two ``b = add_at(b, g, x, i)`` for the same ``x[i]`` become one, adding the two ``g``.
* in a loop, ``b = setitem(a, i, v)`` with the back edge ``a = b`` becomes ``a = setitem(a, i, v)``,
  and every ``a = setitem(a, i, v)`` becomes ``a = set_at(a, i, v)``: written in place when no
  other name holds the array (runtime/rules/inplace.py), instead of a copy per write.  The same
  for ``b = add_at(a, g, x, i)`` with ``a = b`` (the tangent of an adjoint loop's reads, in
  ``hvp``): ``add_at`` then adds in place, O(1) per read instead of a copy of the array.
* ``a + -y * c`` becomes ``a - y * c``, and ``t = -y`` read once as ``a + c * t`` becomes
  ``a - c * y`` (as ``2.0 * t``, ``-2.0 * y``): negation is exact in floating point, so the
  result is bit for bit the same, without the temporary (an allocation per element array, a
  float object per scalar).
"""

import ast

from runtime.rules.containers import setitem
from runtime.rules.inplace import add_at, set_at

from ..core.astutil import statements, walk
from .index import NodeIndex

__all__ = ["tidy", "writes_in_place"]

_WINDOW = 24      # statements searched ahead for a use (keeps the pass linear in the function's size)


def _name(node, ctx=ast.Load):
    return isinstance(node, ast.Name) and isinstance(node.ctx, ctx)


def _stores(stmt):
    if stmt.__class__ is ast.Assign and len(stmt.targets) == 1 and stmt.targets[0].__class__ is ast.Name:
        return {stmt.targets[0].id}          # the common case, without a walk (values bind nothing)
    if stmt.__class__ is ast.Expr:
        return set()
    return {n.id for n in walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def _loads(stmt):
    out = {}
    for n in walk(stmt):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            out[n.id] = out.get(n.id, 0) + 1
    return out


def _copy(s):
    """(target, source) of ``target = source`` on names, else None."""
    if isinstance(s, ast.Assign) and len(s.targets) == 1 and _name(s.targets[0], ast.Store) \
            and _name(s.value):
        return s.targets[0].id, s.value.id
    return None


def _drop_copy_back(block):
    out = []
    last = {}        # name -> the name it was copied from (neither rebound since)
    copies_of = {}   # source name -> names copied from it
    for s in block:
        pair = _copy(s)
        if pair is not None:
            a, b = pair
            if last.get(b) == a:
                continue                       # b = a earlier, neither rebound since: a == b already
        for name in _stores(s):
            source = last.pop(name, None)
            if source is not None:
                copies_of.get(source, set()).discard(name)
            for target in copies_of.pop(name, ()):
                last.pop(target, None)
        if pair is not None:
            last[pair[0]] = pair[1]
            copies_of.setdefault(pair[1], set()).add(pair[0])
        out.append(s)
    block[:] = out


def _negated_products(binops):
    """``a + -y * c`` (or ``a + c * -y``) -> ``a - y * c``, on each BinOp of ``binops`` in place."""
    for node in binops:
        if isinstance(node.op, ast.Add) and isinstance(node.right, ast.BinOp) and isinstance(node.right.op, ast.Mult):
            m = node.right
            for side in ("left", "right"):
                v = getattr(m, side)
                if isinstance(v, ast.UnaryOp) and isinstance(v.op, ast.USub):
                    setattr(m, side, v.operand)
                    node.op = ast.Sub()
                    break


def _inline_negations(block, loads_total):
    """``t = -y`` read once, by a later ``a + c * t`` in this block: ``a - c * y``; by a later
    ``k * t`` (a number literal ``k``): ``-k * y``."""
    i = 0
    while i < len(block):
        s = block[i]
        if isinstance(s, ast.Assign) and len(s.targets) == 1 and _name(s.targets[0], ast.Store) \
                and isinstance(s.value, ast.UnaryOp) and isinstance(s.value.op, ast.USub) \
                and _name(s.value.operand) and loads_total.get(s.targets[0].id) == 1:
            t, y = s.targets[0].id, s.value.operand.id
            for j in range(i + 1, min(len(block), i + 1 + _WINDOW)):
                later = block[j]
                if t in _loads(later):
                    if isinstance(later, ast.Assign) and _rewrite_use(later.value, t, y):
                        del block[i]
                        i -= 1
                    break
                if y in _stores(later) or t in _stores(later):
                    break
        i += 1


def _rewrite_use(expr, t, y):
    """Turn ``a + c * t`` (or ``a + t * c``) at the top of ``expr`` into ``a - c * y``, and
    ``k * t`` (or ``t * k``) for a number literal ``k`` into ``-k * y`` (exact: a product's
    rounding does not depend on the signs)."""
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mult):
        for side, other in (("left", "right"), ("right", "left")):
            v, k = getattr(expr, side), getattr(expr, other)
            if _name(v) and v.id == t and isinstance(k, ast.Constant) and type(k.value) in (int, float):
                v.id = y
                setattr(expr, other, ast.copy_location(ast.Constant(-k.value), k))
                return True
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add) and isinstance(expr.right, ast.BinOp) \
            and isinstance(expr.right.op, ast.Mult):
        m = expr.right
        for side in ("left", "right"):
            v = getattr(m, side)
            if _name(v) and v.id == t and _loads(m.left if side == "right" else m.right).get(t, 0) == 0 \
                    and _loads(expr.left).get(t, 0) == 0:
                v.id = y
                expr.op = ast.Sub()
                return True
    return False


def _add_at_parts(s, is_add_at):
    """(target, g, x dump, idx dump) of ``b = add_at(b, g, x, idx)``, else None."""
    if isinstance(s, ast.Assign) and len(s.targets) == 1 and _name(s.targets[0], ast.Store) \
            and isinstance(s.value, ast.Call) and len(s.value.args) == 4 and is_add_at(s.value.func):
        out, g, x, idx = s.value.args
        if _name(out) and out.id == s.targets[0].id:
            return s.targets[0].id, g, ast.dump(x), ast.dump(idx)
    return None


def _merge_add_at(block, is_add_at):
    """``b = add_at(b, g1, x, i)`` ... ``b = add_at(b, g2, x, i)`` -> one ``add_at(b, g1 + g2, x, i)``
    at the second place, when nothing between reads ``b`` or rebinds g1, x or i: one index
    operation instead of two for the reads ``x[i] * x[i]``.  Returns whether any merged."""
    merged = False
    i = 0
    while i < len(block):
        first = _add_at_parts(block[i], is_add_at)
        if first is not None:
            target, g1, x, idx = first
            pinned = {target} | {n.id for n in walk(g1) if isinstance(n, ast.Name)} \
                | {n.id for n in walk(block[i].value.args[2]) if isinstance(n, ast.Name)} \
                | {n.id for n in walk(block[i].value.args[3]) if isinstance(n, ast.Name)}
            for j in range(i + 1, min(len(block), i + 1 + _WINDOW)):
                second = _add_at_parts(block[j], is_add_at)
                if second is not None and second[0] == target and second[2:] == (x, idx) \
                        and not (_stores(block[j]) - {target}) & pinned:
                    call = block[j].value
                    call.args[1] = ast.BinOp(g1, ast.Add(), call.args[1])
                    del block[i]
                    i -= 1
                    merged = True
                    break
                if target in _loads(block[j]) or _stores(block[j]) & pinned:
                    break
        i += 1
    return merged


def _coalesce_writes(fn, loops, is_write):
    """In a loop body ``b = setitem(a, i, v)`` (or ``add_at(a, g, x, i)``) ... ``a = b`` (the back
    edge) becomes ``a = setitem(a, i, v)``: the array is then held by one name only, so
    ``set_at`` (``add_at``) can write it in place.  A chain of writes ``c = add_at(a, ...)``,
    ``b = add_at(c, ...)``, ``a = b`` (two reads ``x[i + 1] - x[i]``) becomes writes to ``a``.
    Only when ``b`` (and each link) is assigned nowhere else, a link is read only by the next
    write, ``b`` only in this body after its definition, and ``a`` not there after the first."""
    stores = {}
    for n in walk(fn):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            stores[n.id] = stores.get(n.id, 0) + 1
    loads_total = _loads(fn)

    def write_of(body, name, before):
        """The index of ``name = <write>(...)`` in ``body[:before]``, if that is its only binding."""
        if stores.get(name) != 1:
            return None
        at = next((j for j, s in enumerate(body[:before]) if isinstance(s, ast.Assign)
                   and _name(s.targets[0], ast.Store) and s.targets[0].id == name), None)
        if at is None:
            return None
        v = body[at].value
        if isinstance(v, ast.Call) and is_write(v.func) and v.args and _name(v.args[0]):
            return at
        return None

    for loop in loops:
        body = loop.body
        k = len(body)
        while k > 0 and _copy(body[k - 1]) is not None:
            k -= 1
        for tail in list(body[k:]):
            a, b = _copy(tail)
            chain = []
            at, name = k, b
            while True:
                at = write_of(body, name, at)
                if at is None or (chain and loads_total.get(name, 0) != 1):
                    chain = None
                    break
                chain.append(body[at])
                name = body[at].value.args[0].id
                if name == a:
                    break
            if not chain:
                continue
            first = body.index(chain[-1])
            later = [s for s in body[first + 1:] if s is not tail]
            inside = sum(_loads(s).get(b, 0) for s in later)
            if inside != loads_total.get(b, 0) - 1 or any(_loads(s).get(a, 0) for s in later) \
                    or (isinstance(loop, ast.While) and _loads(loop.test).get(b, 0)):
                continue
            for d in chain:
                d.targets[0].id = a
                d.value.args[0].id = a
            for s in later:
                for n in walk(s):
                    if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id == b:
                        n.id = a
            body.remove(tail)         # (after body[:k]: k still ends the statements before the copies)


def _self_write(node, is_setitem):
    """Is ``node`` ``a = setitem(a, i, v)``?"""
    v = node.value
    return len(node.targets) == 1 and _name(node.targets[0], ast.Store) and isinstance(v, ast.Call) \
        and len(v.args) == 3 and not v.keywords and _name(v.args[0]) \
        and v.args[0].id == node.targets[0].id and is_setitem(v.func)


def tidy(fn, resolve, index=None):
    """Apply the rewrites to every block of the generated FunctionDef ``fn`` (in place);
    ``resolve`` maps a function expression of the generated code to its object.  One walk
    (``index``, a NodeIndex the later passes go on using) finds what each rewrite could
    apply to; a rewrite with nothing to do costs nothing."""
    def is_add_at(func):
        return resolve(func) is add_at
    index = NodeIndex() if index is None else index
    blocks, loads_total = [fn.body], {}
    for n in index.names(fn):
        if n.ctx.__class__ is ast.Load:
            loads_total[n.id] = loads_total.get(n.id, 0) + 1
    copies = negations = calls = False
    for n in statements(fn):
        cls = n.__class__
        if cls is ast.Assign:
            v = n.value
            copies = copies or v.__class__ is ast.Name
            negations = negations or (v.__class__ is ast.UnaryOp and v.op.__class__ is ast.USub)
            calls = calls or (v.__class__ is ast.Call and len(v.args) == 4)
        elif cls is ast.For or cls is ast.While or cls is ast.If:
            blocks.append(n.body)
            if n.orelse:
                blocks.append(n.orelse)
    binops = index.binops(fn)
    merged = False
    for block in blocks:
        if copies:
            _drop_copy_back(block)
        if negations:
            _inline_negations(block, loads_total)
        if calls:
            merged = _merge_add_at(block, is_add_at) or merged
    _negated_products(binops)
    if merged:             # an addend moved from one statement into another
        index.forget()
    return fn


def writes_in_place(fn, resolve, ref):
    """The loop write coalescing and ``set_at`` (after copy propagation, which turns the
    adjoint's ``b2 = b1; b1 = setitem(b2, ...)`` into ``b1 = setitem(b1, ...)``); ``ref(obj,
    name)`` gives an expression for an object in the generated code."""
    def is_setitem(func):
        return resolve(func) is setitem

    def is_write(func):
        f = resolve(func)
        return f is setitem or f is add_at
    loops, writes = [], []
    for n in statements(fn):
        if isinstance(n, (ast.For, ast.While)):
            loops.append(n)
        elif isinstance(n, ast.Assign) and isinstance(n.value, ast.Call) and len(n.value.args) in (3, 4):
            writes.append(n)
    writes = [n for n in writes if is_write(n.value.func)]
    if not writes:
        return fn
    if loops:
        _coalesce_writes(fn, loops, is_write)
    for n in writes:
        if len(n.value.args) == 3 and _self_write(n, is_setitem):
            n.value.func = ast.copy_location(ref(set_at, "set_at"), n.value.func)
    return fn
