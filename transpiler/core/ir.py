"""The core IR: what the front end produces and every later pass may rely on.

A core function is an ``ast.FunctionDef`` (``normalize`` builds it; ``ast.unparse`` prints it)
with the user's parameters and a body made only of these statements.  Passes mark nodes with
annotations (``anno.get(node, "prim")``), each declared in core/annotations.py; below, ``[prim]``
names one.

* ``name = value`` -- every name is assigned once outside loops (SSA: a reassigned user name
  gets a fresh version), and ``value`` is ONE operation on *atoms*.  Atoms are names,
  constants, and static references rooted at a global or closure name (``np.pi``: the node
  has ``[static]``).  A value is one of

  - an atom (a copy);
  - ``a op b``, ``op a``, ``a < b`` (one comparison);
  - a call ``f(a, b, k=c)`` whose arguments are atoms or tuple/list literals of atoms.
    ``[prim]`` is the resolved callable (a numpy function for ``x.sum()`` / ``x.T``, a
    container primitive of ``runtime.rules.containers`` for a write such as ``x[i] = v``),
    or ``None`` with ``[method]`` (a method of a local value, ``x.method(...)``) or
    ``[dynamic]`` (a local callable: a parameter, a function passed in), or a stack
    push/pop (``[stack_push]`` / ``[stack_pop]`` naming the stack, see below);
  - ``a.attr`` (``[attr]`` names the attribute), ``a[index]`` with an index made of atoms,
    slices and tuples of them;
  - a tuple or list literal of atoms;
  - an opaque expression evaluated as written (f-strings, sets: ``[opaque]``), never
    differentiable;
  - ``s.append`` / ``s.pop`` bound to a name (``[stack_method]`` names the stack ``s``).

* ``if name: ... else: ...`` -- from ``if`` statements, conditional expressions,
  ``and``/``or`` and chained comparisons; the names a branch assigns are merged by an
  assignment at the end of each branch.
* ``for name in range(atoms): ...`` (the iterator's ``[prim]`` is ``range``) and ``while name: ...`` -- every
  other loop is lowered to these.  The loop's ``[carried]`` lists the names live across iterations;
  each is assigned before the loop and again at the end of the body (those back-edge
  assignments have ``[backedge]``).  No ``break``/``continue``/early ``return``.
* expression statements (calls kept for their effects, stack pushes ``push(t)``), ``assert``.
* exactly one final ``return atom`` or ``return (atoms...)`` (nested tuples allowed).

Every statement has ``[src]``: the user's statement it came from (comments and errors).  The
FunctionDef carries ``[stack_methods]`` (bound push/pop names -> ``("push" | "pop", stack)``).

Stacks: generated gradients save values with ``push = stack.append`` / ``pop = stack.pop``;
read back (``grad(grad(f))``) those become the marked calls above, queried with
``push_parts`` / ``popped_from`` / ``method_of`` below (what each mode does with them:
modes/stacks.py).

The package's layers, lowest first; a module imports only from its own layer or lower ones
(tests/test_layers.py checks it):

    core       ir (this contract), context (fresh names, outside references), errors,
               callables (what is a user function; hooks the surface registers)
    frontend   normalize and its constructs (source, control, calls, containers, objects,
               effects): source -> core IR
    backend    templates (rule templates), optimize (clean-up), codegen (printing, compiling)
    analysis   activity and other facts about the core IR
    modes      reverse, forward, split, stacks, calls, again: core IR -> derivative code
    bridge     to runtime's tape, loaded on first use: tape_call (a differentiated function
               on tensors), tf_calls and tf_twins (tf.* calls written as numpy)
    surface    api, higher, tangent_compat, __main__ (the top-level modules)
"""

import ast

from . import annotations as anno

__all__ = ["MISSING", "COMMENT", "comment", "walk_assigns", "output_names", "push_parts", "walk_pushes",
           "popped_from", "method_of"]

MISSING = object()      # "no such name" (a scope lookup that found nothing)

COMMENT = "\x00adjoin-comment "     # a string statement starting so is printed as a comment


def comment(text):
    """A statement that codegen prints as ``# text``."""
    return ast.Expr(ast.Constant(COMMENT + text))


def walk_assigns(body):
    """Every core Assign in ``body`` (into branches), in program order."""
    for s in body:
        if isinstance(s, ast.Assign):
            yield s
        elif isinstance(s, (ast.If, ast.For, ast.While)):
            yield from walk_assigns(s.body)
            yield from walk_assigns(s.orelse)


def output_names(core):
    """The names the core function returns (nested tuples included)."""
    return _names_in(core.body[-1].value)


def _names_in(ret):
    """Names returned, nested tuples included (a generated forward's ``return out, (saved...)``)."""
    if isinstance(ret, ast.Name):
        return [ret.id]
    return [n for e in ret.elts for n in _names_in(e)] if isinstance(ret, ast.Tuple) else []


# --- stacks --------------------------------------------------------------------------------
def walk_pushes(body):
    """Every push statement in ``body`` (into branches and loops), in program order."""
    for s in body:
        if push_parts(s) is not None:
            yield s
        elif isinstance(s, (ast.If, ast.For, ast.While)):
            yield from walk_pushes(s.body)
            yield from walk_pushes(s.orelse)


def push_parts(s):
    """(stack name, pushed atom) for a push statement, else None."""
    if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call):
        stack = anno.get(s.value, "stack_push")
        if stack is not None:
            return stack, s.value.args[0]
    return None


def popped_from(s):
    """The stack an assignment ``x = pop()`` pops from, else None."""
    return anno.get(s.value, "stack_pop") if isinstance(s, ast.Assign) else None


def method_of(s):
    """The stack an assignment ``push = stack.append`` binds a method of, else None."""
    return anno.get(s.value, "stack_method") if isinstance(s, ast.Assign) else None
