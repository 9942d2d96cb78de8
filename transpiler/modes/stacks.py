"""The list stacks of generated gradients, made differentiable so gradients can be transformed again.

A generated gradient saves what its adjoint loops read with one idiom::

    stack = []
    push = stack.append
    pop = stack.pop
    ...  push(t1)      # primal loop
    ...  t1 = pop()    # adjoint loop, last pushed first

Reading that code back (``grad(grad(f))``, ``hvp``), normalize (frontend/gradient_stacks.py) marks the
three parts: the bound methods (annotation ``stack_method``), the pushes (``stack_push``) and
the pops (``stack_pop``), each naming the stack (queried with core/ir.py's
``push_parts``...). A stack is one value for activity: it is active when an active value is
pushed, and then every value popped from it is active. Pushes and pops stay paired whatever is
active, because each pass mirrors *every* push and pop of an active stack:

* forward mode keeps a tangent stack next to it: ``dpush(dt1)`` after each push (a zero for
  an inactive value), ``dt1 = dpop()`` after each pop;
* reverse mode runs them backwards on an adjoint stack: the adjoint of ``t1 = pop()`` is
  ``bpush(bt1)`` (a zero when t1 got no adjoint) and the adjoint of ``push(t1)`` is
  ``bt1 = bpop()`` (a bare ``bpop()`` for an inactive value).  The adjoint sweep meets pops
  before the pushes they undo, so the adjoint stack hands each push exactly the adjoint of
  the value it saved.

Normalize names the value of a bare ``pop()`` (``t = pop()``), so the next pass mirrors that
pop too (a third derivative reads the bare ``bpop()`` of a second-order adjoint loop).

The generated code uses the same idiom for its adjoint stack, so a third transformation
reads it like the first.
"""

import ast

from ..core import annotations as anno
from ..core.ir import method_of, popped_from, push_parts, walk_pushes

__all__ = ["forward", "handles", "pop_adjoint", "push_adjoint", "push_contributions", "adjoint_prelude"]


# --- forward mode ------------------------------------------------------------------------
def forward(fwd, s):
    """Tangent statements mirroring the stack statement ``s`` (empty if it is not one or its
    stack carries no tangents)."""
    name = lambda n: ast.Name(n, ast.Load())  # noqa: E731
    if push_parts(s) is not None:
        stack, value = push_parts(s)
        if not fwd.active(stack):
            return []
        return [ast.Expr(ast.Call(name(fwd.tan(s.value.func.id)), [fwd.tangent_of(value)], []))]
    stack = popped_from(s)
    if stack is not None:
        if not fwd.active(stack):
            return []
        call = ast.Call(name(fwd.tan(s.value.func.id)), [], [])
        return [ast.Assign([ast.Name(fwd.tan(s.targets[0].id), ast.Store())], call)]
    stack = method_of(s)
    if stack is not None and fwd.active(stack):
        method = ast.Attribute(name(fwd.tan(stack)), s.value.attr, ast.Load())
        return [ast.Assign([ast.Name(fwd.tan(s.targets[0].id), ast.Store())], method)]
    return []


def handles(s):
    return push_parts(s) is not None or popped_from(s) is not None or method_of(s) is not None


# --- reverse mode ------------------------------------------------------------------------
def _adjoint_stack(rev, stack):
    """(push, pop) names of the adjoint stack of ``stack``, created on first use."""
    stacks = rev.__dict__.setdefault("adjoint_stacks", {})
    if stack not in stacks:
        bound = anno.get(rev.core, "stack_methods", {})
        methods = {kind: m for m, (kind, s) in bound.items() if s == stack}
        push = rev.ctx.namer.claim("b" + methods.get("push", stack + "_push"))
        pop = rev.ctx.namer.claim("b" + methods.get("pop", stack + "_pop"))
        stacks[stack] = (rev.adj(stack), push, pop)
    return stacks[stack][1:]


def pop_adjoint(rev, s, out, has):
    """``x = pop()`` backwards: push x's adjoint (or a zero) onto the adjoint stack."""
    stack = popped_from(s)
    target = s.targets[0].id
    if not rev.info.needs_adjoint(stack):
        return
    push, _ = _adjoint_stack(rev, stack)
    g = rev.load(rev.adj(target)) if target in has else rev.zero(target)
    has.discard(target)
    out.append(ast.Expr(ast.Call(rev.load(push), [g], [])))


def push_adjoint(rev, s, out, has):
    """``push(x)`` backwards: x's adjoint gains what the adjoint stack holds for it."""
    stack, value = push_parts(s)
    if not rev.info.needs_adjoint(stack):
        return
    _, pop = _adjoint_stack(rev, stack)
    popped = ast.Call(rev.load(pop), [], [])
    if isinstance(value, ast.Name) and rev.info.needs_adjoint(value.id):
        rev.contribute(out, has, value.id, popped)
    else:
        out.append(ast.Expr(popped))


def push_contributions(rev, body):
    """Names the adjoints of the pushes in ``body`` add to."""
    out = set()
    for s in walk_pushes(body):
        stack, value = push_parts(s)
        if isinstance(value, ast.Name) and rev.info.needs_adjoint(stack) and rev.info.needs_adjoint(value.id):
            out.add(value.id)
    return out


def adjoint_prelude(rev):
    """``bstack = []; bpush = bstack.append; bpop = bstack.pop`` for each adjoint stack used."""
    out = []
    for stack, (name, push, pop) in getattr(rev, "adjoint_stacks", {}).items():
        out.append(ast.Assign([ast.Name(name, ast.Store())], ast.List([], ast.Load())))
        for method, attr in ((push, "append"), (pop, "pop")):
            out.append(ast.Assign([ast.Name(method, ast.Store())], ast.Attribute(rev.load(name), attr, ast.Load())))
    return out
