"""Reverse mode of a checkpointed loop: snapshots in the primal, recomputation in the adjoint.

With ``memory_budget`` (or a ``# adjoin: snapshots=N`` comment on the loop's line), each
outermost loop of the function is generated like this instead of pushing every trip::

    plan = Checkpoints(budget=..., where='for i in range(n):', trips=len(range(n)))
    for i in range(n):
        if plan.take((x_1,)):             # snapshot: the loop-carried values, when due
            tape = []; push = tape.append # measure: the first trip of a first run is recorded
            ... push(t1) ...
            plan.sized(tape)
        else:
            ...                           # the primal trip, nothing saved
    ...
    # grad of: for i in range(n):
    for start, stop, record, state in plan.reversal():
        (x_1,) = state                    # restore a snapshot
        if record:                        # reverse: record these trips, then their adjoint
            tape = []; push = tape.append; pop = tape.pop
            for i in range(n)[start:stop]: ... push(t1) ...
            plan.taped(tape, start, stop)
            for i in reversed(range(n)[start:stop]): ... t1 = pop() ...
        else:                             # advance without saving to a new snapshot
            for i in range(n)[start:stop]: ...
            plan.keep(stop, (x_1,))

The loop-carried state is the loop's carried names (normalize's annotation ``carried``); what the trips
save and how the adjoint reads it is the ordinary loop code of reverse.py, recorded on the
loop's own tape.  When to snapshot and what to recompute is checkpoint_schedule.py's.
A loop nested in a checkpointed loop is checkpointed too: a recorded outer trip saves the
inner loop's plan (its snapshots) on the outer tape, and the outer adjoint reverses it.
"""

import ast
import copy
import inspect
import re
import sys
import textwrap
import types

from ..core import annotations as anno
from ..core.ir import MISSING, comment, walk_assigns
from ..frontend.source.parsing import Scope
from .checkpoint_schedule import Checkpoints

__all__ = ["applies", "loop", "snapshots_override"]

_DIRECTIVE = re.compile(r"#\s*adjoin:\s*snapshots\s*=\s*(\d+)")


def snapshots_override(rev, s):
    """N from a ``# adjoin: snapshots=N`` comment on the loop's first line, else None."""
    src = anno.get(s, "src")
    if not isinstance(src, (ast.For, ast.While)):
        return None
    m = _DIRECTIVE.search(rev.ctx.parsed.line(src.lineno))
    if m is None:
        return None
    n = int(m.group(1))
    if n < 1:
        raise rev.ctx.error("`# adjoin: snapshots=0` leaves nothing to restart the loop from", src,
                            "ask for at least one snapshot")
    return n


def applies(rev, s):
    """Checkpoint this loop? With a budget, or the override comment on its line."""
    return getattr(rev, "memory_budget", None) is not None or snapshots_override(rev, s) is not None


def _draws(obj):
    """Is ``obj`` a random number source (numpy.random, a Generator's method, ``random``)?
    (Until numpy.random or random is imported, nothing the function calls can come from them.)"""
    sources = [m for m in (sys.modules.get("numpy.random"), sys.modules.get("random")) if m is not None]
    if any(obj is m for m in sources):
        return True
    kinds = tuple(getattr(m, k) for m in sources for k in ("Generator", "RandomState", "BitGenerator", "Random")
                  if hasattr(m, k))
    if kinds and isinstance(getattr(obj, "__self__", None), kinds):
        return True
    return (getattr(obj, "__module__", None) or "").startswith(("numpy.random", "random"))


def _resolve(node, scope):
    if isinstance(node, ast.Name):
        return scope.lookup(node.id)
    if isinstance(node, ast.Attribute):
        base = _resolve(node.value, scope)
        return MISSING if base is MISSING else getattr(base, node.attr, MISSING)
    return MISSING


def random_call(tree, scope, seen=None, depth=0):
    """The first call in ``tree`` (or in a user function it calls) that draws random numbers."""
    seen = set() if seen is None else seen
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        fn = _resolve(node.func, scope)
        if fn is MISSING:
            continue
        if _draws(fn):
            return node
        if isinstance(fn, types.FunctionType) and id(fn) not in seen and depth < 4:
            seen.add(id(fn))
            try:
                inner = ast.parse(textwrap.dedent(inspect.getsource(fn)))
            except (OSError, TypeError, SyntaxError):
                continue
            if random_call(inner, Scope(fn), seen, depth + 1) is not None:
                return node
    return None


def _name(n, store=False):
    return ast.Name(n, ast.Store() if store else ast.Load())


def _call(func, args, keywords=()):
    return ast.Call(func, list(args), list(keywords))


def _method(obj, attr, *args):
    return _call(ast.Attribute(_name(obj), attr, ast.Load()), args)


def _state(names, store=False):
    return ast.Tuple([_name(n, store) for n in names], ast.Store() if store else ast.Load())


def loop(rev, s, out, has):
    """The checkpointed reverse of loop ``s`` (a core For over a range, or a While).

    Appends the adjoint to ``out`` and returns the primal statements, as Reverse.loop does."""
    ctx = rev.ctx
    src = anno.get(s, "src")
    if src is not None:
        draw = random_call(src, ctx.parsed.scope)
        if draw is not None:
            raise ctx.error("this loop draws random numbers, so it cannot be checkpointed: recomputing "
                            "its trips would draw new ones", draw,
                            "draw them before the loop (one array of draws, indexed by trip), or "
                            "differentiate without memory_budget")
    plain = copy.deepcopy(s.body)          # a trip of the primal, saving nothing
    carried = list(anno.get(s, "carried", ()))
    local = {x.targets[0].id for x in walk_assigns(s.body)} - set(carried)
    outer = {n for n in rev.contributions(s.body) if n not in local}
    init = [ast.Assign([_name(rev.adj(n), True)], rev.zero(n)) for n in sorted(outer - has)]
    h_in = has | outer
    hb = set(h_in)

    # the recording trips push onto the loop's own tape (nested loops too)
    kept = tuple(getattr(rev, a, None) for a in ("stack", "push", "pop"))
    tape, push, pop = (ctx.namer.claim(n) for n in ("tape", "push", "pop"))
    rev.stack, rev.push, rev.pop = tape, push, pop
    depth = getattr(rev, "_checkpointing", 0)
    rev._checkpointing = depth + 1
    try:
        adj_body = []
        rev.last_src = None
        record = rev.sweep(s.body, adj_body, hb, in_loop=True)
        for n in sorted(h_in - hb):
            adj_body.append(ast.Assign([_name(rev.adj(n), True)], rev.zero(n)))
        owned = rev.owned(s.body)
        if isinstance(s, ast.For):
            owned.discard(s.target.id)
        rev.save(record, adj_body, owned)
    finally:
        rev.stack, rev.push, rev.pop = kept
        rev._checkpointing = depth
    has.clear()
    has.update(h_in)
    rev.last_src = None

    plan, start, stop, rec, state = (ctx.namer.claim(n) for n in ("plan", "start", "stop", "record", "state"))
    anno.put(s, "counter", plan)       # inside a recorded loop, each trip's plan is saved like a trip count
    where = rev.source_of(src) if src is not None else "loop"
    budget = getattr(rev, "memory_budget", None)
    keywords = [ast.keyword("budget", ast.Constant(budget)), ast.keyword("where", ast.Constant(where))]
    if isinstance(s, ast.For):
        keywords.append(ast.keyword("trips", _call(ctx.ref(len, "len"), [copy.deepcopy(s.iter)])))
    fixed = snapshots_override(rev, s)
    if fixed is not None:
        keywords.append(ast.keyword("snapshots", ast.Constant(fixed)))
    make = ast.Assign([_name(plan, True)], _call(ctx.ref(Checkpoints, "Checkpoints"), [], keywords))
    take = ast.Expr(_method(plan, "take", _state(carried)))

    trip = None if isinstance(s, ast.For) else ctx.namer.claim("trip")

    def trips(body, backwards=False):
        """A loop over trips start..stop-1 (the same loop variable as the user's ``for``)."""
        if isinstance(s, ast.For):
            span = ast.Subscript(copy.deepcopy(s.iter), ast.Slice(_name(start), _name(stop), None), ast.Load())
            target = copy.deepcopy(s.target)
        else:
            span = _call(ctx.ref(range, "range"), [_name(start), _name(stop)])
            target = _name(trip, True)
        if backwards:
            span = _call(ctx.ref(reversed, "reversed"), [span])
        target.ctx = ast.Store()
        return ast.For(target, span, body or [ast.Pass()], [], None)

    reverse_branch = [
        _comment("reverse: record trips start..stop-1, then run their adjoint, last trip first"),
        ast.Assign([_name(tape, True)], ast.List([], ast.Load())),
        ast.Assign([_name(push, True)], ast.Attribute(_name(tape), "append", ast.Load())),
        ast.Assign([_name(pop, True)], ast.Attribute(_name(tape), "pop", ast.Load())),
        trips(record),
        ast.Expr(_method(plan, "taped", _name(tape), _name(start), _name(stop))),
        trips(adj_body, backwards=True)]
    advance_branch = [_comment("advance: recompute to trip stop without saving, keep a snapshot there"),
                      trips(copy.deepcopy(plain)), ast.Expr(_method(plan, "keep", _name(stop), _state(carried)))]
    reversal = ast.For(ast.Tuple([_name(n, True) for n in (start, stop, rec, state)], ast.Store()),
                       _call(ast.Attribute(_name(plan), "reversal", ast.Load()), [],
                             [ast.keyword("repeat", ast.Constant(True))] if getattr(rev, "repeatable", False) else []),
                       ([_comment("restore the snapshot at trip start"),
                         ast.Assign([_state(carried, True)], _name(state))] if carried else [])
                       + [ast.If(_name(rec), reverse_branch, advance_branch)], [], None)
    out.extend(init)
    if src is not None:
        out.append(_comment("grad of: " + where))
    out.append(ast.copy_location(reversal, s))

    if budget is not None:
        # the first trip of a first run is recorded: the size of its tape plans the snapshots
        measure = [_comment("measure: record this trip once, to learn how much a trip saves"),
                   ast.Assign([_name(tape, True)], ast.List([], ast.Load())),
                   ast.Assign([_name(push, True)], ast.Attribute(_name(tape), "append", ast.Load())),
                   *copy.deepcopy(record),
                   ast.Expr(_method(plan, "sized", _name(tape)))]
        body = [ast.If(take.value, measure, plain)]
    else:
        body = [take] + plain
    if isinstance(s, ast.For):
        new = ast.For(s.target, s.iter, body, [], None)
    else:
        new = ast.While(s.test, body, [])
    why = "memory_budget" if fixed is None else f"adjoin: snapshots={fixed}"
    note = _comment(f"checkpointed ({why}): snapshots of {', '.join(carried) or 'nothing'} "
                    "when due, nothing saved per trip")
    new = ast.copy_location(new, s)
    for key in ("carried", "src"):
        if anno.has(s, key):
            anno.put(new, key, anno.get(s, key))
    return [note, ast.copy_location(make, s), new]


_comment = comment
