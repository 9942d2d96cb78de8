"""Every annotation a pass puts on a node of the IR, and every field of a Context: declared here.

A pass marks a node with ``anno.put(node, "prim", fn)`` and reads the mark back with
``anno.get(node, "prim")`` (``None``, or the default given, when the node has none).  Only the
keys declared in NODE below exist: any other raises ``KeyError``, so a new annotation is declared
here first, with what it means, which passes set it and which read it.  On the node, key ``k`` is
the attribute ``_k``: ``copy.deepcopy`` and ``copy_ast`` carry it, ``ast.dump`` and printing
ignore it.  ``tests/transpiler/core/test_annotations.py`` checks that no module reaches these
attributes around this API and that every attribute a transformation leaves on a node is declared.

A Context's fields (one transformation's shared state) are declared in CONTEXT the same way; the
Context class takes exactly these (``__slots__``), so setting another raises ``AttributeError``.
"""

from collections import namedtuple

__all__ = ["NODE", "CONTEXT", "get", "put", "has", "drop", "attribute"]

Declared = namedtuple("Declared", "meaning set_by read_by")

NODE = {
    # --- calls (frontend/calls/sites.py, containers/, effects/; bridge/tf_calls.py) ---------------
    "prim": Declared(
        "the callable a call resolves to: a numpy function, a container primitive, a helper, a "
        "user function, a tf twin (None with `method`, `dynamic`, or a stack push/pop)",
        "frontend (calls/sites, containers/writes, containers/sequence_operators, control/loops, "
        "effects/checks, gradient_stacks), bridge/tf_calls",
        "frontend, analysis (activity, reuse), modes (calls), bridge, core/ir"),
    "method": Declared(
        "a call of a method of a local value, `x.method(...)`: the method's name",
        "frontend/calls/sites", "frontend/emitter, analysis/activity, modes (calls, reverse_statements)"),
    "dynamic": Declared(
        "a call of a local callable (a parameter, a function passed in): found when the code runs",
        "frontend/calls/sites", "analysis/activity"),
    "user_text": Declared(
        "what the user wrote for a call that was rewritten (`tf.reduce_sum()`, `.astype(int)`): "
        "what a zero-gradient warning names",
        "frontend/calls/sites, bridge/tf_calls", "analysis/zeros"),
    # --- values (frontend/expressions.py, containers/) -------------------------------------------
    "static": Declared(
        "an atom that is a static reference rooted at a global or closure name (`np.pi`): True",
        "frontend/expressions",
        "frontend (emitter, containers/writes, effects/pruning), analysis/activity, modes/calls, "
        "core/astutil"),
    "attr": Declared(
        "an attribute read `a.attr` made a core value: the attribute's name",
        "frontend/expressions", "frontend/emitter"),
    "opaque": Declared(
        "an expression evaluated as written (an f-string, a set), never differentiable: True",
        "frontend (desugar, expressions)", "analysis/activity"),
    "element": Declared(
        "an inner list literal kept as an item of an outer one: a name for it is an alias of the item",
        "frontend/expressions", "frontend/emitter"),
    "fresh": Declared(
        "a list made by a comprehension that no user name holds yet (`m = [...]` is no second name)",
        "frontend/containers/writes", "frontend/emitter"),
    "order": Declared(
        "a call or expression whose value is an order found on values (sorted items, positions): "
        "no gradient passes through it",
        "frontend/desugar", "frontend/desugar"),
    "keys_of": Declared(
        "a listing of a dict's keys (`list(d)`, a loop over `d`) that becomes `keys_of(d)`: True",
        "frontend (containers/writes, control/loops)", "frontend (containers/writes, control/loops)"),
    "dict_pop": Declared(
        "a `.pop(...)` call on a local known to be a dict, not a list: True or False",
        "frontend/containers/literals", "frontend/containers/writes"),
    "generator": Declared(
        "a call of a generator function whose items are all taken (written `items_(gen(...))`, its list): True",
        "frontend/control/iterables", "frontend/calls/sites"),
    "partial": Declared(
        "`p = functools.partial(g, a)` whose calls are all written out in full: the statement goes",
        "frontend/containers/literals", "frontend/desugar"),
    # --- statements and control flow (frontend/emitter.py, control/) -----------------------------
    "src": Declared(
        "the user's statement a core statement came from (comments, errors, zero-gradient warnings)",
        "frontend (emitter, control/loops; modes/reverse_control and checkpoint copy it)",
        "backend/optimize, analysis/zeros, modes (reverse_statements, reverse_control, checkpoint, forward)"),
    "carried": Declared(
        "a core loop's names live across iterations, each assigned before the loop and at the end "
        "of its body",
        "frontend/control/loops (modes/reverse_control and checkpoint copy it to the loops they write)",
        "modes (reverse_control, checkpoint)"),
    "backedge": Declared(
        "an assignment at the end of a loop body that carries a name to the next iteration: True",
        "frontend/control/loops", "analysis/reuse, modes/reverse_control"),
    "break": Declared(
        "a loop of the user's with a `break`: the flag name the rewritten loop tests",
        "frontend/control/jumps", "frontend/control/loops"),
    "guarded": Declared(
        "a statement inside a `try` body (its handler must see the errors it raises): True",
        "frontend/control/blocks", "backend/optimize"),
    # --- a generated gradient's stacks, read back (frontend/gradient_stacks.py) --------------
    "stack_push": Declared(
        "a call that pushes onto a generated gradient's stack: the stack's name",
        "frontend/gradient_stacks", "modes/stacks, core/ir"),
    "stack_pop": Declared(
        "a call that pops from a generated gradient's stack: the stack's name",
        "frontend/gradient_stacks", "frontend/statements, analysis/activity, modes/stacks, core/ir"),
    "stack_method": Declared(
        "`push = s.append` / `pop = s.pop`: the stack `s` the bound method belongs to",
        "frontend/gradient_stacks", "analysis/activity, modes/stacks, core/ir"),
    "stack_methods": Declared(
        "the core FunctionDef: each bound push/pop name -> (\"push\" | \"pop\", stack)",
        "frontend/normalize", "modes/stacks"),
    # --- reverse mode (modes/) -----------------------------------------------------------------
    "primal": Declared(
        "a call of a user function in reverse mode: the statements that replace it in the primal "
        "sweep (the callee's forward, which also returns what its backward reads)",
        "modes/calls", "modes (reverse, calls)"),
    "tape": Declared(
        "that call's saved-values name (`y_tape`): what the callee's backward reads",
        "modes/calls", "modes (reverse_control, calls)"),
    "counter": Declared(
        "a loop in reverse mode: the name counting its trips (or its checkpoint plan)",
        "modes (reverse_control, checkpoint)", "modes (reverse_control, checkpoint)"),
    # --- optimization and printing (backend/) -------------------------------------------------------
    "checks": Declared(
        "a statement whose operations prove two lengths equal, which later code relies on: "
        "dead-code elimination keeps it",
        "backend/shapes", "backend/optimize"),
    "release": Declared(
        "a `del` added to free a large dead array early (numba compiles no `del`: jit drops them)",
        "backend/release", "backend/release"),
    "pp": Declared(
        "astor's operator precedence, which astor sets while printing a node",
        "astor (backend/codegen copies it when it swaps a node back)", "astor"),
}
"""Node annotations: key -> what it means, which modules set it, which read it."""

CONTEXT = {
    "parsed": Declared("the user's function as parsed (frontend/source/parsing.Parsed): node, scope, fn",
                       "Context()", "every pass"),
    "user_names": Declared("every identifier the user's function uses (generated names avoid them)",
                           "Context()", "Context.ref"),
    "user_stored": Declared("the names the user's function binds or deletes", "Context()",
                            "frontend/desugar"),
    "namer": Declared("hands out fresh names (core/context.Namer)", "Context()", "every pass"),
    "injected": Declared("name -> object the generated namespace must provide",
                         "Context.ref (trimmed to the names used: generate, modes/split)",
                         "backend/codegen, generate, modes/split"),
    "by_id": Declared("id(object) -> the name Context.ref gave it", "Context.ref", "Context.ref"),
    "handlers": Declared("(handler, (first, last) line of the try body it watches) of the function's `try` statements (control/blocks drops them)",
                         "frontend/normalize", "frontend/control/blocks (guard), backend/optimize"),
    "memory_budget": Declared("bytes reverse mode may keep for checkpointed loops, or None",
                              "generate, modes/split", "modes (calls, callees)"),
    "arrays": Declared("the parameters the variant is specialised on as arrays (ndim, dtype), or None",
                       "generate, modes/split",
                       "backend/optimize (shapes), frontend/containers/sequence_operators"),
    "shapes_from": Declared("the primal's statements whose shapes a split backward may read, or ()",
                            "modes/split", "backend/optimize (shapes)"),
    "scalar_seed": Declared("the seed's name when it defaults to a number (shapes may take it as 0-d), "
                            "else None", "generate", "backend/optimize (shapes), generate"),
}
"""Context fields: name -> what it means, who sets it, who reads it."""

_ATTRIBUTE = {key: "_" + key for key in NODE}


def attribute(key):
    """The attribute that holds annotation ``key`` on a node (KeyError if ``key`` is undeclared)."""
    return _ATTRIBUTE[key]


def get(node, key, default=None):
    """Annotation ``key`` of ``node``, or ``default`` when the node has none."""
    return getattr(node, _ATTRIBUTE[key], default)


def put(node, key, value):
    """Annotate ``node`` with ``key`` = ``value``."""
    setattr(node, _ATTRIBUTE[key], value)


def has(node, key):
    """Whether ``node`` carries annotation ``key``."""
    return hasattr(node, _ATTRIBUTE[key])


def drop(node, key):
    """Remove annotation ``key`` from ``node`` (nothing if it has none)."""
    name = _ATTRIBUTE[key]
    if hasattr(node, name):
        delattr(node, name)
