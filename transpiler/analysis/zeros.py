"""Gradients that are zero by structure: a ``wrt`` parameter with no differentiable path to the
returned value.  The gradient is still returned (zeros are the right answer); the user is told
once, when the variant is generated, which line cuts the path -- usually a mistake (``int()``,
``round``, a comparison used only as a condition, ``.astype(int)``, ``stop_gradient``)."""

import ast
import operator
import os

import runtime.rules

from ..core import annotations as anno
from ..core.ir import walk_assigns
from .activity import CMPOPS, _flows, analyze

__all__ = ["structural_zeros"]

_CMP = set(CMPOPS.values())
_RULES_DIR = os.path.dirname(os.path.abspath(runtime.rules.__file__)) + os.sep


def structural_zeros(core, info, names, outputs, filename, *facts):
    """``[(parameter, message)]`` for each of ``names`` whose gradient is zero by structure
    (``facts``: what ``analyze`` was given after the outputs).  None for a helper of the rule
    table (runtime/rules) transformed for second order: its cuts are not the user's to fix."""
    if os.path.abspath(filename).startswith(_RULES_DIR):
        return []
    out = []
    for name in names:
        if name in info.useful:
            continue
        own = analyze(core, [name], outputs, *facts)       # this parameter's own activity
        cut = _first_cut(core, own)
        if cut is not None:
            line, why = cut
            out.append((name, f"the gradient with respect to `{name}` is zero everywhere: no "
                              f"differentiable path from `{name}` to the returned value; {why} at "
                              f"{filename}:{line} cuts it"))
        elif not any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
                     for n in ast.walk(core)):
            out.append((name, f"the gradient with respect to `{name}` is zero everywhere: the "
                              f"parameter `{name}` is never used"))
        else:
            out.append((name, f"the gradient with respect to `{name}` is zero everywhere: no value "
                              f"computed from `{name}` reaches the returned value"))
    return out


def _first_cut(core, info):
    """(line, description) of the first user statement where a value depending on the parameter
    enters an operation no gradient passes through."""
    cuts = []
    for s in walk_assigns(core.body):
        op = info.ops.get(id(s))
        if op is None:
            continue
        if any(name in info.active and not _flows(op, i) for i, name in op.operands()):
            src = anno.get(s, "src") or s
            cuts.append((getattr(src, "lineno", 0), _what(op, src)))
    return min(cuts, key=lambda c: c[0]) if cuts else None


def _what(op, src):
    fn = op.fn
    if anno.get(op.node, "user_text"):
        return f"`{anno.get(op.node, 'user_text')}`"
    if fn in _CMP:
        used = "a condition" if isinstance(src, (ast.If, ast.While)) else "a value"
        return f"a comparison (used as {used})"
    if fn is operator.floordiv:
        return "floor division `//`"
    if isinstance(getattr(op.node, "func", None), ast.Attribute) and op.fn is None:
        return f"`.{op.node.func.attr}()`"
    if fn is not None:
        mod = getattr(fn, "__module__", None) or ""
        name = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", repr(fn))
        prefix = "np." if mod.startswith("numpy") else ""
        return f"`{prefix}{name}()`" if callable(fn) else f"`{name}`"
    return f"`{ast.unparse(op.node)}`"
