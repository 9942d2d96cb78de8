"""Call arguments rewritten into forms the front end lowers (used by desugar.py): a slice splatted
into a call spread into its items, and the test for arguments a directly called lambda may inline."""

import ast
import copy

from ...core.astutil import walk
from ..containers.literals import const_int, simple

__all__ = ["sliced_items", "pure_argument"]


def sliced_items(arg, kinds):
    """``*x[i:j]`` (constant 0 <= i <= j, step > 0) -> ``x[i], ..., x[j - 1]``: as many arguments
    as Python passes when ``x`` has at least j items; a shorter ``x`` raises IndexError here
    where Python would pass fewer arguments (never a different gradient)."""
    if not (isinstance(arg, ast.Starred) and isinstance(arg.value, ast.Subscript)
            and isinstance(arg.value.slice, ast.Slice) and simple(arg.value.value)):
        return [arg]
    base, sl = arg.value.value, arg.value.slice
    if isinstance(base, ast.Name) and kinds.get(base.id) is ast.Dict:
        return [arg]
    lower, upper, step = (const_int(b) for b in (sl.lower, sl.upper, sl.step))
    if lower is False or upper in (None, False) or step is False or (lower or 0) < 0 or upper < 0 \
            or step is not None and step <= 0:
        return [arg]
    return [ast.copy_location(ast.Subscript(copy.deepcopy(base), ast.Constant(k), ast.Load()), arg)
            for k in range(lower or 0, upper, step or 1)]


def pure_argument(arg, fn):
    """An argument that may be evaluated at each use of a lambda's parameter (or not at all):
    no calls or other effects, and no name of the lambda's own parameters."""
    params = {a.arg for a in fn.args.args}
    return not any(isinstance(n, (ast.Call, ast.NamedExpr, ast.Await, ast.Yield, ast.YieldFrom, ast.Lambda,
                                  ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp))
                   or isinstance(n, ast.Name) and n.id in params for n in walk(arg))
