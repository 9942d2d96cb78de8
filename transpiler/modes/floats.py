"""The variant of a gradient specialised on Python floats: ``math`` functions instead of numpy's.

Called with Python floats, ``np.sin(x)`` costs a numpy dispatch (about a microsecond) where
``math.sin(x)`` costs a C call (tens of nanoseconds); a scalar loop's gradient spends most of
its time there.  When the arguments of a call are known to be Python numbers (``pynums``:
float parameters of this variant, number literals, loop counters, and what arithmetic and
these functions make of them), the specialised variant calls ``math``.

What differs, and why it is still exact:

* ``math`` raises where numpy returns inf or nan with a warning (``math.log(0.0)``,
  ``math.exp(1000.0)``, ``1.0 / 0.0`` on the floats it returns).  The variant is run under
  ``run_with_fallback``: on such an error the general variant runs instead and gives numpy's
  answer, warnings included.
* ``x ** y`` of a negative Python float and a fractional exponent is complex where numpy's
  float64 gives nan, silently.  A function with a power whose exponent is not an integer
  literal is therefore not rewritten at all.
* The values are float where numpy gave float64 scalars (``float`` is their base class), and
  may differ from numpy's in the last bit (another libm); gradients are compared with
  tolerances, never bit for bit.
"""

import ast
import math

import numpy as np

from ..analysis.activity import is_element

__all__ = ["MATH", "pynums", "to_math", "run_with_fallback", "FALLBACK_ERRORS", "share_element_reads"]

MATH = {np.sin: "sin", np.cos: "cos", np.tan: "tan", np.arcsin: "asin", np.arccos: "acos",
        np.arctan: "atan", np.sinh: "sinh", np.cosh: "cosh", np.tanh: "tanh", np.arcsinh: "asinh",
        np.arccosh: "acosh", np.arctanh: "atanh", np.exp: "exp", np.expm1: "expm1", np.log: "log",
        np.log1p: "log1p", np.log2: "log2", np.log10: "log10", np.sqrt: "sqrt", np.arctan2: "atan2",
        np.hypot: "hypot", np.fabs: "fabs"}
"""numpy ufunc -> the ``math`` function that computes it on Python floats."""

FALLBACK_ERRORS = (ArithmeticError, ValueError, TypeError, AttributeError)


def _number(node):
    return isinstance(node, ast.Constant) and type(node.value) in (int, float)


def pynums(core, floats, assigns, ops, loop_targets, elements=()):
    """Names of ``core`` that hold Python numbers (or numpy float64 scalars) when the parameters
    ``floats`` are Python floats and ``elements`` 1-d float64 arrays; empty when the function has a power that ``math`` would make
    complex (see the module docstring)."""
    for n in ast.walk(core):
        if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Pow) and not (
                isinstance(n.right, ast.Constant) and type(n.right.value) is int):
            return set()
    by_target = {}
    for s in assigns:
        by_target.setdefault(s.targets[0].id, []).append(ops[id(s)])
    # optimistic, as for 0-d values (analysis.py): a loop's carried value depends on itself
    out = set(floats) | set(loop_targets) | set(by_target)

    def atom(a):
        return _number(a) or (isinstance(a, ast.Name) and a.id in out)

    def makes_pynum(op):
        if is_element(op, elements, loop_targets):      # x[i] of a 1-d float64 array: np.float64
            return True
        if op.kind == "const":
            return _number(op.node)
        if op.kind == "copy":
            return atom(op.args[0])
        if op.kind not in ("prim", "nondiff") or op.kwargs:
            return False
        if isinstance(op.node, ast.BinOp):
            return not isinstance(op.node.op, ast.MatMult) and all(atom(a) for a in op.args)
        if isinstance(op.node, ast.UnaryOp):
            return not isinstance(op.node.op, (ast.Not, ast.Invert)) and all(atom(a) for a in op.args)
        fn = op.fn
        if fn in MATH or (callable(fn) and getattr(fn, "__module__", None) == "math"):
            return bool(op.args) and all(atom(a) for a in op.args)
        return False

    changed = True
    while changed:
        changed = False
        for target, target_ops in by_target.items():
            if target in out and not all(makes_pynum(op) for op in target_ops):
                out.discard(target)
                changed = True
    return out


def to_math(fn_node, ctx, names, resolve):
    """Rewrite ``np.f(a, ...)`` to ``math.f(a, ...)`` in ``fn_node`` where every argument is a
    number literal or a name in ``names``; returns how many calls were rewritten.  The user's
    own ``math.f(...)`` is called by its bare name too (``from math import f``: one global
    lookup, not a global and an attribute; the same function, so nothing to count)."""
    count = [0]

    def atom(a):
        return _number(a) or (isinstance(a, ast.Name) and a.id in names)

    class _Rewrite(ast.NodeTransformer):
        def visit_Call(self, call):
            self.generic_visit(call)
            if isinstance(call.func, ast.Attribute):
                fn = resolve(call.func)
                if getattr(fn, "__module__", None) == "math" and getattr(math, fn.__name__, None) is fn:
                    call.func = ast.copy_location(ctx.ref(fn, fn.__name__), call.func)
                    return call
            if call.keywords or not call.args or not all(atom(a) for a in call.args):
                return call
            fn = resolve(call.func)
            try:
                attr = MATH.get(fn)
            except TypeError:
                return call
            if attr is None:
                return call
            count[0] += 1
            call.func = ast.copy_location(ctx.ref(getattr(math, attr), attr), call.func)   # `from math import sin`
            return call

    _Rewrite().visit(fn_node)
    return count[0]


def run_with_fallback(special, general):
    """``special`` (the math variant), or ``general()`` (the numpy variant, built on first need)
    when ``math`` raises where numpy would have returned inf or nan."""
    def run(*args, **kwargs):
        try:
            return special(*args, **kwargs)
        except FALLBACK_ERRORS:
            return general().function(*args, **kwargs)
    run.__wrapped__ = special
    return run


def share_element_reads(core, elements):
    """``t4 = x[i]`` after ``t2 = x[i]`` in the same block (neither ``x`` nor ``i`` rebound in
    between, ``t2`` and ``t4`` assigned nowhere else) goes, and ``t4`` reads ``t2``: for the 1-d
    float64 array parameters ``elements``, reading an element twice gives the same float, and a
    loop then saves it once."""
    stores = {}
    for n in ast.walk(core):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            stores[n.id] = stores.get(n.id, 0) + 1
    renames = {}

    def block(body):
        seen = {}                         # (array, index) -> the name holding x[i]
        keep = []
        for s in body:
            if isinstance(s, (ast.If, ast.For, ast.While)):
                block(s.body)
                block(s.orelse)
            if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) \
                    and isinstance(s.value, ast.Subscript) and isinstance(s.value.value, ast.Name) \
                    and s.value.value.id in elements and isinstance(s.value.slice, ast.Name) \
                    and stores.get(s.targets[0].id) == 1:
                key = (s.value.value.id, s.value.slice.id)
                if key in seen:
                    renames[s.targets[0].id] = seen[key]
                    continue                      # dropped: its readers read the first one
                seen[key] = s.targets[0].id
                keep.append(s)
                continue
            stored = {n.id for n in ast.walk(s) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
            if isinstance(s, ast.For) and isinstance(s.target, ast.Name):
                stored.add(s.target.id)
            for key in [k for k in seen if k[0] in stored or k[1] in stored]:
                del seen[key]
            keep.append(s)
        body[:] = keep
    block(core.body)
    if renames:
        for n in ast.walk(core):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in renames:
                n.id = renames[n.id]
