"""Calls to user functions: each callee differentiated by its own generated code.

A core statement ``y = g(a, b, k=c)`` with an active argument, where ``g`` is a Python
function (not a rule primitive), becomes in reverse mode::

    y, y_tape = fwd_g(a, b, k=c)       # the primal sweep: g's split forward
    ...
    ba, bc = bwd_g(y_tape, by)         # the adjoint sweep: g's split backward

and in forward mode ``y, dy = jvp_g((da, dc), a, b, k=c)``.  The callee's ``wrt`` is the
parameters its active arguments bind to.  ``fwd_g``/``bwd_g``/``jvp_g`` are the proxies of
callees.py; a callee known only at run time is called through its ``call_forward`` /
``call_backward`` / ``call_jvp``.

Generated code is differentiated again (``hvp``, ``grad(grad(f))``) the same way: a call to
``fwd_g``/``bwd_g`` is a call to a user function whose source is the generated pair (so it
gets ``fwd_fwd_g``..., and recursion stays recursion), its ``saved`` tuple a tuple-valued
result and parameter moved item by item with ``item_seed``; ``call_forward``/``call_backward``
are read as the plain Python of again.py.
"""

import ast
import copy
import inspect
import operator
import types

from runtime.rules.tuples import item_seed

from ..core import annotations as anno
from ..analysis.activity import _names
from ..core.callables import user_function
from ..core.ir import walk_assigns
from ..frontend.source.parsing import parse_function
from ..frontend.source.star_args import specialised
from .callees import _Proxy, call_backward, call_forward, call_jvp, label, prepare, proxy

__all__ = ["reverse_call", "forward_call", "tuple_item", "zero_parameter", "parameter_seeds"]


# --- binding a call to the callee's signature -----------------------------------------------

def _callee_params(ctx, node, fn, nargs, keywords, self_first):
    """Parameter names the call's positional (then keyword) arguments bind to."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        raise ctx.error(f"cannot read the signature of {fn.__qualname__}()", node,
                        "call a plain Python function") from None
    offset = 1 if self_first else 0
    marks = [("pos", i) for i in range(nargs + offset)]
    try:
        bound = sig.bind(*marks, **{k: ("kw", k) for k in keywords})
    except TypeError as e:
        raise ctx.error(f"this call does not match {fn.__qualname__}{sig}: {e}", node,
                        "pass the arguments the function expects") from None
    where = {}
    for pname, value in bound.arguments.items():
        kind = sig.parameters[pname].kind
        if kind is inspect.Parameter.VAR_POSITIONAL:
            for v in value:
                where[v] = ("*", pname)
        elif kind is inspect.Parameter.VAR_KEYWORD:
            for v in value.values():
                where[v] = ("**", pname)
        else:
            where[value] = (None, pname)
    pos = [where[("pos", i + offset)] for i in range(nargs)]
    kws = {k: where[("kw", k)] for k in keywords}
    return pos, kws


def _active(info, atom):
    return any(n in info.active for n in _names(atom))


def _call_parts(rev, op, s):
    """(static function or None, func expression, positional args, keywords, active list).

    ``active`` lists (position or keyword name, atom) for the arguments that carry gradients."""
    node = op.node
    info = rev.info
    static = anno.get(node, "prim")
    if isinstance(static, _Proxy) and static.role == "jvp":
        raise rev.ctx.error(f"differentiating generated code again through its call to {static.__name__}() "
                            "is not supported yet (higher derivatives of functions that call user "
                            "functions)", node, "inline the callee for higher derivatives, or nest "
                            "runtime.GradientTape blocks around the function")
    func = node.func
    args, keywords = list(node.args), {k.arg: k.value for k in node.keywords}
    for a in list(args) + list(keywords.values()):
        if isinstance(a, (ast.Tuple, ast.List)) and any(not isinstance(e, (ast.Name, ast.Constant)) for e in a.elts) \
                and _active(info, a):
            raise rev.ctx.error("a nested tuple or list of differentiable values is passed to a function", node,
                                "bind the inner list to a name first")
    active = [(i, a) for i, a in enumerate(args) if _active(info, a)]
    active += [(k, a) for k, a in keywords.items() if _active(info, a)]
    if static is None and anno.get(node, "method") is not None:
        base = func.value
        if _active(info, base):
            meth = anno.get(node, "method")
            from runtime.rules.registry import method_hint
            raise rev.ctx.error(f"the method `.{meth}()` has no derivative rule", node, method_hint(meth))
    if static is None and isinstance(func, ast.Name) and _active(info, func):
        raise rev.ctx.error("calling a differentiable value", node, "call a function")
    return static, func, args, keywords, active


def _static_wrt(rev, op, static, args, keywords, active):
    """(function, self expression or None, wrt names, keyword renames) for a callee known now.

    When a differentiable value lands in ``*args``/``**kwargs`` the callee is specialised to
    this call's shape (see Specialised) and keywords bound to ``**kwargs`` are renamed."""
    fn, bound_self = user_function(static)
    pos, kws = _callee_params(rev.ctx, op.node, fn, len(args), list(keywords), bound_self is not None)
    renames = {}
    nvar = sum(1 for kind, _ in pos if kind == "*")
    # specialised also when only other arguments are differentiable: a body that passes ``*args``
    # on (``f(x, *args)``) reads as explicit arguments then, which the transforms follow
    if nvar or any((pos[k] if isinstance(k, int) else kws[k])[0] for k, _ in active):
        keys = tuple(k for k in keywords if kws[k][0] == "**")
        fn = specialised(fn, nvar, keys)
        count = 0
        for i, (kind, pname) in enumerate(pos):
            if kind == "*":
                pos[i] = (None, f"{pname}_{count}")
                count += 1
        for k in keys:
            kws[k] = (None, f"{kws[k][1]}_{k}")
            renames[k] = kws[k][1]
    wrt = []
    for key, _ in active:
        kind, pname = pos[key] if isinstance(key, int) else kws[key]
        if pname in wrt:
            raise rev.ctx.error(f"two arguments bind to parameter {pname}", op.node, "pass it once")
        wrt.append(pname)
    beyond = set(wrt) - set(getattr(fn, "_adjoin_recompute_wrt", wrt))
    if beyond:      # see again.recompute_pair: those parameters reach its gradient as constants
        raise rev.ctx.error(f"differentiating again with respect to {', '.join(sorted(beyond))}, which the "
                            f"first gradient of {fn.__name__[4:]}() (a function with loops) held constant, "
                            "is not supported", op.node, "differentiate both times with respect to the "
                            "same arguments, or nest runtime.GradientTape blocks")
    self_expr = None
    if bound_self is not None:
        func = op.node.func
        method = isinstance(static, types.MethodType) or hasattr(static, "_self")
        if static is bound_self and anno.get(func, "static", False):
            self_expr = copy.deepcopy(func)                # MODEL(x): self is MODEL
        elif method and isinstance(func, ast.Attribute) and anno.get(func, "static", False):
            self_expr = copy.deepcopy(func.value)          # SCALER.apply(x): self is SCALER
        else:
            self_expr = rev.ctx.ref(bound_self, "self_" + label(fn))
    return fn, self_expr, tuple(wrt), renames


def _spec(active):
    return ast.Tuple([ast.Constant(k) for k, _ in active], ast.Load())


def _returns_tuple(fn):
    """Does ``fn`` always return a tuple literal (of one length)?  Decides how seeds are passed."""
    try:
        node = parse_function(fn).node
    except Exception:
        return None
    sizes = set()
    todo = list(node.body)
    while todo:
        n = todo.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(n, ast.Return):
            sizes.add(len(n.value.elts) if isinstance(n.value, ast.Tuple) else None)
        todo.extend(ast.iter_child_nodes(n))
    return sizes.pop() if len(sizes) == 1 else None


# --- reverse mode ---------------------------------------------------------------------------

def reverse_call(rev, op, s, g, block, has):
    """Adjoint of ``s`` (a call with active arguments); also annotates ``s`` with ``primal`` and ``tape``."""
    ctx = rev.ctx
    target = s.targets[0].id
    static, func, args, keywords, active = _call_parts(rev, op, s)
    if not active:       # `h(1.5)` assigned to a name differentiable on another path: a constant
        return
    kw_nodes = [ast.keyword(k, v) for k, v in keywords.items()]
    if static is not None:
        fn, self_expr, wrt, renames = _static_wrt(rev, op, static, args, keywords, active)
        kw_nodes = [ast.keyword(renames.get(k, k), v) for k, v in keywords.items()]
        prepare(ctx, op.node, fn, wrt, "reverse")
        # with a budget the callee's loops are checkpointed too (in a caller's recorded trip they
        # keep only their start: Checkpoints knows it is nested)
        budget = ctx.memory_budget
        fwd = ctx.ref(proxy(fn, wrt, "forward", budget), "fwd_" + label(fn))
        bwd = ctx.ref(proxy(fn, wrt, "backward", budget), "bwd_" + label(fn))
        call = ast.Call(fwd, ([self_expr] if self_expr is not None else []) + args, kw_nodes)
    else:
        fwd = ctx.ref(call_forward, "call_forward")
        bwd = ctx.ref(call_backward, "call_backward")
        call = ast.Call(fwd, [func, _spec(active)] + args, kw_nodes)
    tape = ctx.namer.claim(target + "_tape")
    primal = ast.Assign([ast.Tuple([ast.Name(target, ast.Store()), ast.Name(tape, ast.Store())], ast.Store())],
                        call)
    anno.put(s, "primal", [ast.copy_location(primal, s)])
    anno.put(s, "tape", tape)
    size = _call_results(rev).get(target)
    if size is not None:     # item_seed(t, (0, 1), (bh, by)): code transformed again follows each item
        items = range(size) if isinstance(size, int) else rev._call_items[target]
        keys = [i for i in items if _item_key(target, i) in has]
        seed = ast.Call(ctx.ref(item_seed, "item_seed"), [
            ast.Name(target, ast.Load()), ast.Tuple([ast.Constant(i) for i in keys], ast.Load()),
            ast.Tuple([ast.Name(rev.adj(_item_key(target, i)), ast.Load()) for i in keys], ast.Load())], [])
    else:
        seed = g
    grads = ast.Call(bwd, [ast.Name(tape, ast.Load()), seed], [])
    if len(active) == 1:
        _give(rev, block, has, active[0][1], grads)
        return
    tmp = ctx.namer.temp("r")
    block.append(ast.Assign([ast.Name(tmp, ast.Store())], grads))
    for j, (_, atom) in enumerate(active):
        _give(rev, block, has, atom, ast.Subscript(ast.Name(tmp, ast.Load()), ast.Constant(j), ast.Load()))


def _give(rev, block, has, atom, expr):
    """The cotangent ``expr`` of argument ``atom``: a name's, or each item's of a list or tuple
    literal (``g([a, b])``), slot by slot as for the literal's own statement."""
    if isinstance(atom, ast.Name):
        rev.contribute(block, has, atom.id, expr)
        return
    from runtime.rules.containers import slot
    whole = rev.ctx.namer.temp("r")
    block.append(ast.Assign([ast.Name(whole, ast.Store())], expr))
    for j, e in enumerate(atom.elts):
        if isinstance(e, ast.Name) and rev.info.needs_adjoint(e.id):
            rev.contribute(block, has, e.id, ast.Call(rev.ctx.ref(slot, "slot"),
                                                      [ast.Name(whole, ast.Load()), ast.Constant(j), e], []))


def _item_key(target, i):
    return f"{target}_{i}" if i >= 0 else f"{target}_neg{-i}"


def _call_results(rev):
    """Call results read item by item: name -> tuple size, or "run time" for a callee found then.

    A run-time callee's result counts only when every read of it is ``t[constant]``."""
    defs = getattr(rev, "_call_defs", None)
    if defs is not None:
        return defs
    defs = rev._call_defs = {}
    items, other = {}, set()
    for st in walk_assigns(rev.core.body):
        sop = rev.info.ops[id(st)]
        if sop.kind == "prim" and sop.fn is operator.getitem and isinstance(sop.args[0], ast.Name) \
                and isinstance(sop.args[1], ast.Constant) and isinstance(sop.args[1].value, int):
            items.setdefault(sop.args[0].id, set()).add(sop.args[1].value)
            continue
        other.update(n for _, n in sop.operands())
    for st in rev.core.body[-1:]:
        other.update(n.id for n in ast.walk(st) if isinstance(n, ast.Name))
    if _generated(rev):
        # generated code read again: ``a, b = saved`` gives ``saved`` one item_seed cotangent (not
        # a sum of scatters, which a further derivative could not add up), see parameter_seeds
        for w in rev.wrt:
            if w in items and w not in other:
                defs[w] = "run time"
                rev._call_items = getattr(rev, "_call_items", {})
                rev._call_items[w] = sorted(items[w])
    for st in walk_assigns(rev.core.body):
        sop = rev.info.ops[id(st)]
        if sop.kind != "call":
            continue
        target = st.targets[0].id
        static = anno.get(sop.node, "prim")
        if target not in items or target in other:
            continue                      # used whole (or not at all): its adjoint is the seed
        size = _returns_tuple(user_function(static)[0]) if static is not None else None
        if size:
            defs[target] = size
        else:                             # a result only known when the code runs: item_seed
            defs[target] = "run time"
            rev._call_items = getattr(rev, "_call_items", {})
            rev._call_items[target] = sorted(items[target])
    return defs


def _generated(rev):
    """Is ``rev`` transforming generated code again (a callee's fwd_g/bwd_g)?"""
    return rev.ctx.parsed.fn.__qualname__.startswith("__adjoin_bind__.")


def zero_parameter(rev, w):
    """The zero gradient of generated code's parameter ``w`` (``saved`` may hold tuples): or None."""
    if not _generated(rev):
        return None
    from runtime.rules.containers import zero_grad
    return ast.Call(rev.ctx.ref(zero_grad, "zero_grad"), [ast.Name(w, ast.Load())], [])


def parameter_seeds(rev, has):
    """``bsaved = item_seed(saved, (0, 2), (bsaved_0, bsaved_2))`` for parameters read item by item."""
    out = []
    for w in rev.wrt:
        if _call_results(rev).get(w) is None:
            continue
        keys = [i for i in rev._call_items[w] if _item_key(w, i) in has]
        if not keys:
            continue
        seed = ast.Call(rev.ctx.ref(item_seed, "item_seed"), [
            ast.Name(w, ast.Load()), ast.Tuple([ast.Constant(i) for i in keys], ast.Load()),
            ast.Tuple([ast.Name(rev.adj(_item_key(w, i)), ast.Load()) for i in keys], ast.Load())], [])
        out.append(ast.Assign([ast.Name(rev.adj(w), ast.Store())], seed))
    return out


def tuple_item(rev, op, s, g, block, has):
    """``a = t[i]`` where ``t`` is a call's tuple result: the adjoint goes to ``t``'s item i.

    Returns False when ``s`` is not such a statement."""
    if op.kind != "prim" or op.fn is not operator.getitem:
        return False
    base, index = op.args[0], op.args[1]
    if not (isinstance(base, ast.Name) and isinstance(index, ast.Constant) and isinstance(index.value, int)):
        return False
    size = _call_results(rev).get(base.id)
    if size is None:
        return False
    if size == "run time":
        i = index.value          # item_seed places it when the value is known
    elif -size <= index.value < size:
        i = index.value % size
    else:
        return False
    rev.contribute(block, has, _item_key(base.id, i), g)
    has.add(base.id)
    return True


# --- forward mode ---------------------------------------------------------------------------

def forward_call(fwd, op, s):
    """``y, dy = jvp_g((da, ...), a, ...)`` for a call with active arguments."""
    ctx = fwd.ctx
    target = s.targets[0].id
    static, func, args, keywords, active = _call_parts(fwd, op, s)
    if not active:       # a constant (see reverse_call): its tangent is zero
        zero = ast.Assign([ast.Name(fwd.tan(target), ast.Store())], fwd.zeros(fwd.load(target)))
        return [s, ast.copy_location(zero, s)]
    kw_nodes = [ast.keyword(k, v) for k, v in keywords.items()]
    tangents = ast.Tuple([fwd.tangent_of(a) for _, a in active], ast.Load())
    if static is not None:
        fn, self_expr, wrt, renames = _static_wrt(fwd, op, static, args, keywords, active)
        kw_nodes = [ast.keyword(renames.get(k, k), v) for k, v in keywords.items()]
        prepare(ctx, op.node, fn, wrt, "forward")
        jvp = ctx.ref(proxy(fn, wrt, "jvp"), "jvp_" + label(fn))
        call = ast.Call(jvp, [tangents] + ([self_expr] if self_expr is not None else []) + args, kw_nodes)
    else:
        jvp = ctx.ref(call_jvp, "call_jvp")
        call = ast.Call(jvp, [func, _spec(active), tangents] + args, kw_nodes)
    new = ast.Assign([ast.Tuple([ast.Name(target, ast.Store()), ast.Name(fwd.tan(target), ast.Store())],
                                ast.Store())], call)
    return [ast.copy_location(new, s)]
