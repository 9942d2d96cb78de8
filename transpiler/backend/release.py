"""``del`` each local of a variant specialised on Python floats after its last use at the top level.

A generated gradient names every intermediate value (``t3``, ``bv12``) and Python keeps each
one alive until the function returns.  On Python floats that defeats the interpreter's free
list of float objects: the 200-statement scalar gradient allocated every adjoint value fresh,
and ran 5% slower than the same code releasing them.  So variants specialised on Python floats
(``f.show(0.3, ...)`` prints one) release a name right after the last top-level statement that
mentions it; the general variant (what ``f.show()`` prints) and array variants stay without
these lines (on the MLP benchmark, releasing arrays early measured no faster).

Only names bound by a plain top-level ``name = ...`` before their last use are released (a
name first bound inside a branch or loop may be unbound there), never parameters, and
nothing in a function with a nested scope (a lambda or comprehension could read the name
later) or a call of ``locals``/``vars``/``eval``/``exec``.
"""

import ast

from ..core import annotations as anno

__all__ = ["release_dead", "without_releases"]

_NESTED = (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.ListComp, ast.SetComp,
           ast.DictComp, ast.GeneratorExp, ast.Global, ast.Nonlocal)
_INTROSPECT = {"locals", "vars", "eval", "exec"}


def release_dead(fn):
    """Insert ``del a, b`` into FunctionDef ``fn``'s top-level body (in place); returns ``fn``."""
    body = fn.body
    last, bound = {}, {}
    for i, s in enumerate(body):
        for n in ast.walk(s):
            cls = n.__class__
            if cls is ast.Name:
                last[n.id] = i
            elif isinstance(n, _NESTED) or (cls is ast.Call and isinstance(n.func, ast.Name)
                                             and n.func.id in _INTROSPECT):
                return fn
        if s.__class__ is ast.Assign and len(s.targets) == 1 and s.targets[0].__class__ is ast.Name:
            bound.setdefault(s.targets[0].id, i)
    a = fn.args
    params = {p.arg for p in a.posonlyargs + a.args + a.kwonlyargs} | {p.arg for p in (a.vararg, a.kwarg) if p}
    dead = {}
    end = len(body) - 1 if body and isinstance(body[-1], ast.Return) else len(body)
    for name, i in last.items():
        if name in bound and bound[name] <= i < end - 1 and name not in params \
                and not isinstance(body[i], (ast.Return, ast.Raise)):
            dead.setdefault(i, []).append(name)      # (not just before the return: no gain there)
    if not dead:
        return fn
    out = []
    for i, s in enumerate(body):
        out.append(s)
        if i in dead:
            release = ast.copy_location(ast.Delete([ast.Name(n, ast.Del()) for n in sorted(dead[i])]), s)
            anno.put(release, "release", True)
            out.append(release)
    fn.body = out
    return fn


def without_releases(fn):
    """FunctionDef ``fn`` without the ``del`` lines ``release_dead`` added (in place): numba
    compiles no ``del`` (jit.py)."""
    fn.body = [s for s in fn.body if not anno.get(s, "release", False)]
    return fn
