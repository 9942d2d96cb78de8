"""The list stacks of generated gradients, made differentiable so gradients can be transformed again.

A generated gradient saves what its adjoint loops read with one idiom::

    stack = []
    push = stack.append
    pop = stack.pop
    ...  push(t1)      # primal loop
    ...  t1 = pop()    # adjoint loop, last pushed first

Reading that code back (``grad(grad(f))``, ``hvp``), normalize marks the three parts: the
bound methods (``value._stack_method``), the pushes (``call._stack_push``) and the pops
(``call._stack_pop``), each naming the stack.  A stack is one value for activity: it is active
when an active value is pushed, and then every value popped from it is active.  Pushes and
pops stay paired whatever is active, because each pass mirrors *every* push and pop of an
active stack:

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

__all__ = ["METHODS", "note_assign", "check_uses", "local_call", "walk_pushes", "push_parts"]

METHODS = {"append": "push", "pop": "pop"}    # list method -> what it does to the stack


# --- normalize ---------------------------------------------------------------------------
def note_assign(norm, name, value):
    """Remember ``name = s.append`` / ``name = s.pop`` for a list literal ``s`` (a stack)."""
    if isinstance(value, ast.Attribute) and value.attr in METHODS and isinstance(value.value, ast.Name) \
            and norm.kinds.get(value.value.id) is ast.List and not norm.tuples.get(value.value.id):
        value._stack_method = value.value.id
        norm.stack_methods[name] = (METHODS[value.attr], value.value.id)
        norm.tuples.pop(value.value.id, None)     # it changes: no longer the literal `[]`


def check_uses(norm, core):
    """A stack is read only through its bound methods (else its pops would not pair up)."""
    stacks = {s for _, s in norm.stack_methods.values()}
    through = {id(n.value) for n in ast.walk(core) if getattr(n, "_stack_method", None)}
    for n in ast.walk(core):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in stacks and id(n) not in through:
            raise norm.error(f"the list `{n.id}` is changed through bound methods (`.append`/`.pop`) and "
                             "also read directly, which adjoin cannot differentiate", n,
                             "collect the values in an array (np.stack / np.concatenate of the pieces) "
                             "instead of a list, or build the list outside the differentiated function")


def local_call(norm, node):
    """A push or pop through a bound stack method (normalize calls this only for those names;
    other local callables are calls.py's)."""
    kind, stack = norm.stack_methods[norm.version[node.func.id]]
    nargs = 1 if kind == "push" else 0
    if node.keywords or len(node.args) != nargs:
        raise norm.error(f"`{node.func.id}(...)` takes {nargs} argument(s) here", node,
                         "push one value at a time, pop with no arguments")
    args = [norm.argument(a) for a in node.args]
    call = ast.copy_location(ast.Call(ast.Name(norm.version[node.func.id], ast.Load()), args, []), node)
    call._prim = None
    setattr(call, "_stack_" + kind, stack)
    return call


# --- analysis ----------------------------------------------------------------------------
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
        stack = getattr(s.value, "_stack_push", None)
        if stack is not None:
            return stack, s.value.args[0]
    return None


def popped_from(s):
    """The stack an assignment ``x = pop()`` pops from, else None."""
    return getattr(s.value, "_stack_pop", None) if isinstance(s, ast.Assign) else None


def method_of(s):
    """The stack an assignment ``push = stack.append`` binds a method of, else None."""
    return getattr(s.value, "_stack_method", None) if isinstance(s, ast.Assign) else None


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
        bound = getattr(rev.core, "_stack_methods", {})
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
