"""Normalizing a generated gradient's list stacks (``push = stack.append`` / ``pop = stack.pop``).

Reading generated code back (``grad(grad(f))``, ``hvp``), the bound methods, pushes and pops
are marked in the core IR (core/ir.py); what each mode does with them is modes/stacks.py.
"""

import ast

from ..core import annotations as anno
from ..core.astutil import walk

__all__ = ["METHODS", "note_assign", "check_uses", "local_call"]

METHODS = {"append": "push", "pop": "pop"}    # list method -> what it does to the stack


# --- normalize ---------------------------------------------------------------------------
def note_assign(norm, name, value):
    """Remember ``name = s.append`` / ``name = s.pop`` for a list literal ``s`` (a stack)."""
    if isinstance(value, ast.Attribute) and value.attr in METHODS and isinstance(value.value, ast.Name) \
            and norm.kinds.get(value.value.id) is ast.List and not norm.tuples.get(value.value.id):
        anno.put(value, "stack_method", value.value.id)
        norm.stack_methods[name] = (METHODS[value.attr], value.value.id)
        norm.tuples.pop(value.value.id, None)     # it changes: no longer the literal `[]`


def check_uses(norm, core):
    """A stack is read only through its bound methods (else its pops would not pair up)."""
    stacks = {s for _, s in norm.stack_methods.values()}
    if not stacks:
        return                     # (most functions: no walk of the core)
    through = {id(n.value) for n in walk(core) if anno.get(n, "stack_method")}
    for n in walk(core):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in stacks and id(n) not in through:
            raise norm.error(f"the list `{n.id}` is changed through bound methods (`.append`/`.pop`) and "
                             "also read directly, which adjoin cannot differentiate", n,
                             "collect the values in an array (np.stack / np.concatenate of the pieces) "
                             "instead of a list, or build the list outside the differentiated function")


def local_call(norm, node):
    """A push or pop through a bound stack method (normalize calls this only for those names;
    other local callables are calls/sites.py's)."""
    kind, stack = norm.stack_methods[norm.version[node.func.id]]
    nargs = 1 if kind == "push" else 0
    if node.keywords or len(node.args) != nargs:
        raise norm.error(f"`{node.func.id}(...)` takes {nargs} argument(s) here", node,
                         "push one value at a time, pop with no arguments")
    args = [norm.argument(a) for a in node.args]
    call = ast.copy_location(ast.Call(ast.Name(norm.version[node.func.id], ast.Load()), args, []), node)
    anno.put(call, "prim", None)
    anno.put(call, "stack_" + kind, stack)
    return call
