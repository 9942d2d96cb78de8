"""Which values may hold a Python container (list, tuple, dict) rather than an array.

Their zero cotangent or tangent must not assume an array shape; the modes ask
``indexed_names`` once per transformation.
"""

import ast
import builtins
import operator

from runtime.rules.containers import append_at, setitem, slot, total, zero_grad

from ..core.ir import walk_assigns

__all__ = ["indexed_names"]


def indexed_names(core, info):
    """Names that may hold a list, tuple or dict: indexed, summed, appended to or written into,
    read slot by slot (a container's cotangent or tangent), and the names they are copies of.
    Their zero cotangent must not assume an array shape."""
    out = set()
    copies = []
    for s in walk_assigns(core.body):
        op = info.ops[id(s)]
        first = op.args[0] if op.args else None
        if isinstance(first, ast.Name) and op.fn in (operator.getitem, builtins.sum, setitem, append_at,
                                                     slot, total):     # (the last two: in gradients)
            out.add(first.id)
        if op.fn is zero_grad:              # the zero cotangent of a container (in gradients)
            out.add(s.targets[0].id)
        if op.kind == "copy" and isinstance(first, ast.Name):
            copies.append((s.targets[0].id, first.id))
    changed = True
    while changed:
        changed = False
        for target, source in copies:
            for a, b in ((target, source), (source, target)):
                if a in out and b not in out:
                    out.add(b)
                    changed = True
    return out
