"""Which joins of lists make a list: ``a + b`` and ``a * k`` of list literals and names only
ever bound to lists (used by literals.py to know such names hold lists).  The joins themselves
are modelled by ``aliasing.sequence_operators`` (the ``concat``/``repeat`` rules)."""

import ast

__all__ = ["listy"]


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
