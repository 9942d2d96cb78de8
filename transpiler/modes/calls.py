"""Calls to user functions: each callee differentiated by its own generated code.

A core statement ``y = g(a, b, k=c)`` with an active argument, where ``g`` is a Python
function (not a rule primitive), becomes in reverse mode::

    y, y_tape = fwd_g(a, b, k=c)       # the primal sweep: g's split forward
    ...
    ba, bc = bwd_g(y_tape, by)         # the adjoint sweep: g's split backward

and in forward mode ``y, dy = jvp_g((da, dc), a, b, k=c)``.  The callee's ``wrt`` is the
parameters its active arguments bind to.  ``fwd_g``/``bwd_g``/``jvp_g`` are small proxies
for the callee's generated pair (split.py), looked up in the per-function cache, so each
(callee, wrt) is transformed once; they resolve at call time, which is what lets a function
call itself: its saved tuples nest, and that nesting is the call stack of the recursion.

Callees only known at run time -- a method of a parameter (``self.layer(x)``), a function
passed as an argument (``f(x)`` for a parameter ``f``) -- go through ``call_forward`` /
``call_backward`` / ``call_jvp``, which find the function when called and use the same cache
(a primitive with a rule, such as ``np.sin`` passed as ``f``, uses its rule).

Generated code is differentiated again (``hvp``, ``grad(grad(f))``) the same way: a call to
``fwd_g``/``bwd_g`` is a call to a user function whose source is the generated pair (so it
gets ``fwd_fwd_g``..., and recursion stays recursion), its ``saved`` tuple a tuple-valued
result and parameter moved item by item with ``item_seed``; ``call_forward``/``call_backward``
are read as the plain Python of again.py.
"""

import ast
import copy
import inspect
import types

import numpy as np

from runtime.rules.tuples import item_seed

from ..core.errors import TranspileError

__all__ = ["user_function", "reverse_call", "forward_call", "tuple_item", "item_seed", "label",
           "call_forward", "call_backward", "call_jvp", "callee_sources", "Specialised"]

_IN_PROGRESS = set()     # (function, wrt, mode) being generated now: reference those lazily


# --- what is a user function ----------------------------------------------------------------

def user_function(fn):
    """``(python function, bound self or None)`` for a callable adjoin can transform, else None."""
    from ..api import Differentiable, GradientFunction, _BoundDifferentiable
    if isinstance(fn, _Proxy):              # generated code differentiated again: its own source
        from .again import readable
        return (readable(fn), None) if fn.role != "jvp" else None
    if isinstance(fn, GradientFunction):    # grad(g)(x) inside f: its generated code, differentiated
        return (fn.function, None) if fn._kind == "grad" and not fn._preserve else None
    if isinstance(fn, _BoundDifferentiable):
        return fn._d._fn, fn._self
    if isinstance(fn, Differentiable):
        fn = fn._fn
    if isinstance(fn, types.MethodType):
        inner = user_function(fn.__func__)
        return (inner[0], fn.__self__) if inner is not None and inner[1] is None else None
    if fn is call_forward or fn is call_backward:    # generated code differentiated again
        from . import again
        return (again.forward_again if fn is call_forward else again.backward_again), None
    if isinstance(fn, types.FunctionType):
        mod = getattr(fn, "__module__", None) or ""
        if mod.startswith(("numpy", "runtime.")) or mod == "runtime":
            return None
        from runtime.rules import registry
        return (fn, None) if registry.lookup(fn) is None else None
    call = getattr(type(fn), "__call__", None)
    owner = getattr(type(fn), "__module__", None)
    if isinstance(owner, str) and owner.startswith("transpiler."):   # (a C type may have no str here)
        return None                          # adjoin's own objects (hvp, jacobian...): no source to use
    if isinstance(call, types.FunctionType) and not isinstance(fn, type):
        return user_function(types.MethodType(call, fn))    # an instance with __call__
    return None


def label(fn):
    """A readable identifier for a function: ``MLP.__call__`` -> ``MLP_call``."""
    if isinstance(fn, Specialised):       # one per call shape: g(x, y, scale=s) -> g_2_scale
        return "_".join([label(fn.__wrapped__), str(fn.nvar)] + list(fn.keys))
    qualname = fn.__qualname__
    if qualname.startswith("__adjoin_bind__."):       # generated code (fwd_g), differentiated again
        qualname = fn.__name__
    parts = [p.strip("_") for p in qualname.replace("<locals>.", "").split(".")]
    return "_".join(p for p in parts if p) or "f"


# --- the generated functions of a callee, by proxy ------------------------------------------

class _Proxy:
    """A callee's generated function, found when first called (so recursion can refer to it)."""

    _adjoin_callee = True

    def __init__(self, fn, wrt, role):
        self.fn, self.wrt, self.role = fn, wrt, role
        self.__name__ = {"forward": "fwd_", "backward": "bwd_", "jvp": "jvp_"}[role] + label(fn)
        self.__qualname__ = self.__name__
        self.__module__ = __name__
        self._target = None

    def generated(self):
        """The callee's Split (forward/backward) or tangent Generated (jvp)."""
        from ..api import _transformer
        mode = "forward" if self.role == "jvp" else "split"
        return _transformer(self.fn).get(self.wrt, False, mode=mode)

    def function_node(self):
        gen = self.generated()
        if self.role == "jvp":
            return gen, gen.node, gen.code
        i = 0 if self.role == "forward" else 1
        return gen, gen.nodes[i], gen.codes[i]

    def function(self):
        """The generated Python function itself (its source is registered), for transforming again."""
        gen = self.generated()
        return gen.forward if self.role == "forward" else gen.backward

    def __call__(self, *args, **kwargs):
        target = self._target
        if target is None:
            gen = self.generated()
            if self.role == "jvp":
                names = gen.seed_name
                fn = gen.function
                target = lambda tangents, *a, **k: fn(*a, **k, **dict(zip(names, tangents)))  # noqa: E731
            else:
                target = gen.forward if self.role == "forward" else gen.backward
            self._target = target
        return target(*args, **kwargs)

    def __repr__(self):
        return f"<generated {self.__name__} wrt={self.wrt}>"


_PROXIES = {}


def proxy(fn, wrt, role):
    key = (fn, wrt, role)
    p = _PROXIES.get(key)
    if p is None:
        p = _PROXIES[key] = _Proxy(fn, wrt, role)
    return p


def prepare(ctx, node, fn, wrt, mode):
    """Generate the callee now (errors point at the call site), unless it is being generated."""
    key = (fn, wrt, mode)
    if key in _IN_PROGRESS:
        return
    _IN_PROGRESS.add(key)
    try:
        proxy(fn, wrt, "jvp" if mode == "forward" else "forward").generated()
    except TranspileError as e:
        where = f"{e.filename}:{e.lineno}"
        name = fn.__qualname__
        hint = (e.hint or "").rstrip(".")
        hint = (hint + "; or " if hint else "") + (f"give {name} its own derivative rule with "
                                                   f"runtime.rules.define({name}, vjp=(...,))")
        raise ctx.error(f"cannot differentiate the call to {name}(): {e.reason} (at {where})",
                        node, hint) from None
    finally:
        _IN_PROGRESS.discard(key)


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
    from ..analysis.activity import _names
    return any(n in info.active for n in _names(atom))


def _call_parts(rev, op, s):
    """(static function or None, func expression, positional args, keywords, active list).

    ``active`` lists (position or keyword name, atom) for the arguments that carry gradients."""
    node = op.node
    info = rev.info
    static = getattr(node, "_prim", None)
    if isinstance(static, _Proxy) and static.role == "jvp":
        raise rev.ctx.error(f"differentiating generated code again through its call to {static.__name__}() "
                            "is not supported yet (higher derivatives of functions that call user "
                            "functions)", node, "inline the callee for higher derivatives, or nest "
                            "runtime.GradientTape blocks around the function")
    func = node.func
    args, keywords = list(node.args), {k.arg: k.value for k in node.keywords}
    for a in list(args) + list(keywords.values()):
        if isinstance(a, (ast.Tuple, ast.List)) and _active(info, a):
            raise rev.ctx.error("a tuple or list of differentiable values is passed to a function", a,
                                "pass the values as separate arguments")
    active = [(i, a) for i, a in enumerate(args) if _active(info, a)]
    active += [(k, a) for k, a in keywords.items() if _active(info, a)]
    if static is None and getattr(node, "_method", None) is not None:
        base = func.value
        if _active(info, base):
            meth = node._method
            raise rev.ctx.error(f"the method `.{meth}()` has no derivative rule", node,
                                f"use the numpy function instead (np.{meth}(x, ...)) or add a rule "
                                "with runtime.rules.define(...) in runtime/rules/numpy_extra.py")
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
    if any((pos[k] if isinstance(k, int) else kws[k])[0] for k, _ in active):
        nvar = sum(1 for kind, _ in pos if kind == "*")
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
        if static is bound_self and getattr(func, "_static", False):
            self_expr = copy.deepcopy(func)                # MODEL(x): self is MODEL
        elif method and isinstance(func, ast.Attribute) and getattr(func, "_static", False):
            self_expr = copy.deepcopy(func.value)          # SCALER.apply(x): self is SCALER
        else:
            self_expr = rev.ctx.ref(bound_self, "self_" + label(fn))
    return fn, self_expr, tuple(wrt), renames


class Specialised:
    """A callee with ``*args``/``**kwargs`` fixed to one call's shape, so they can carry gradients.

    ``def g(a, *xs, **kw)`` called as ``g(x, y, z, scale=s)`` is generated as
    ``def fwd_g(a, xs_0, xs_1, *, kw_scale)``: ``xs`` reads as the tuple ``(xs_0, xs_1)``, and
    ``kw["scale"]`` / ``kw.get("scale", d)`` as ``kw_scale``.  One per (function, shape)."""

    def __init__(self, fn, nvar, keys):
        self.__wrapped__ = fn
        self.nvar, self.keys = nvar, keys
        self.__name__, self.__qualname__ = fn.__name__, fn.__qualname__
        self.__module__ = fn.__module__
        params = [p for p in inspect.signature(fn).parameters.values()]
        out = []
        for p in params:
            if p.kind is inspect.Parameter.VAR_POSITIONAL:
                out += [inspect.Parameter(f"{p.name}_{i}", inspect.Parameter.POSITIONAL_OR_KEYWORD)
                        for i in range(nvar)]
            elif p.kind is inspect.Parameter.VAR_KEYWORD:
                out += [inspect.Parameter(f"{p.name}_{k}", inspect.Parameter.KEYWORD_ONLY) for k in keys]
            elif p.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD) \
                    and nvar:
                out.append(p.replace(default=inspect.Parameter.empty))
            else:
                out.append(p)
        self.__signature__ = inspect.Signature(out)

    def __call__(self, *args, **kwargs):      # pragma: no cover - only its generated code runs
        return self.__wrapped__(*args, **kwargs)

    def _adjoin_specialise(self, parsed):
        node = parsed.node
        a = node.args
        var = a.vararg.arg if a.vararg is not None else None
        kw = a.kwarg.arg if a.kwarg is not None else None
        if var is not None:
            a.args = a.args + [ast.arg(f"{var}_{i}") for i in range(self.nvar)]
            if self.nvar:
                a.defaults = []
        if kw is not None:
            a.kwonlyargs = a.kwonlyargs + [ast.arg(f"{kw}_{k}") for k in self.keys]
            a.kw_defaults = a.kw_defaults + [None] * len(self.keys)
        a.vararg = a.kwarg = None
        nvar, keys = self.nvar, self.keys

        class Rewrite(ast.NodeTransformer):
            def visit_Name(self, n):
                if n.id == var and isinstance(n.ctx, ast.Load):
                    return ast.copy_location(ast.Tuple([ast.Name(f"{var}_{i}", ast.Load())
                                                        for i in range(nvar)], ast.Load()), n)
                return n

            def visit_Subscript(self, n):
                if isinstance(n.value, ast.Name) and n.value.id == kw and isinstance(n.slice, ast.Constant) \
                        and n.slice.value in keys:
                    return ast.copy_location(ast.Name(f"{kw}_{n.slice.value}", ast.Load()), n)
                return self.generic_visit(n)

            def visit_Call(self, n):
                n.args = [a for arg in n.args for a in self._spread(arg)]
                n.keywords = [k for kwd in n.keywords for k in self._spread_keywords(kwd)]
                f = n.func
                if isinstance(f, ast.Name) and f.id == "tuple" and len(n.args) == 1 and not n.keywords \
                        and isinstance(n.args[0], ast.Name) and n.args[0].id == kw:
                    return ast.copy_location(ast.Tuple([ast.Constant(k) for k in keys], ast.Load()), n)
                if isinstance(f, ast.Attribute) and f.attr == "get" and isinstance(f.value, ast.Name) \
                        and f.value.id == kw and n.args and isinstance(n.args[0], ast.Constant):
                    if n.args[0].value in keys:
                        return ast.copy_location(ast.Name(f"{kw}_{n.args[0].value}", ast.Load()), n)
                    return self.visit(n.args[1]) if len(n.args) > 1 else ast.copy_location(ast.Constant(None), n)
                return self.generic_visit(n)

            def _spread_keywords(self, kwd):      # g(**kw) -> g(scale=kw_scale)
                if kwd.arg is None and isinstance(kwd.value, ast.Name) and kwd.value.id == kw:
                    return [ast.keyword(k, ast.copy_location(ast.Name(f"{kw}_{k}", ast.Load()), kwd.value))
                            for k in keys]
                return [self.visit(kwd)]

            def _spread(self, arg):      # g(*xs) -> g(xs_0, xs_1)
                if isinstance(arg, ast.Starred) and isinstance(arg.value, ast.Name) and arg.value.id == var:
                    return [ast.copy_location(ast.Name(f"{var}_{i}", ast.Load()), arg) for i in range(nvar)]
                return [arg]

        node.body = [Rewrite().visit(st) for st in node.body]
        ast.fix_missing_locations(node)


_SPECIALISED = {}


def specialised(fn, nvar, keys):
    key = (fn, nvar, keys)
    if key not in _SPECIALISED:
        _SPECIALISED[key] = Specialised(fn, nvar, keys)
    return _SPECIALISED[key]


def _spec(active):
    return ast.Tuple([ast.Constant(k) for k, _ in active], ast.Load())


def _returns_tuple(fn):
    """Does ``fn`` always return a tuple literal (of one length)?  Decides how seeds are passed."""
    try:
        from ..frontend.parsing import parse_function
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
    """Adjoint of ``s`` (a call with active arguments); also sets ``s._primal`` and ``s._tape``."""
    ctx = rev.ctx
    target = s.targets[0].id
    static, func, args, keywords, active = _call_parts(rev, op, s)
    kw_nodes = [ast.keyword(k, v) for k, v in keywords.items()]
    if static is not None:
        fn, self_expr, wrt, renames = _static_wrt(rev, op, static, args, keywords, active)
        kw_nodes = [ast.keyword(renames.get(k, k), v) for k, v in keywords.items()]
        prepare(ctx, op.node, fn, wrt, "reverse")
        fwd = ctx.ref(proxy(fn, wrt, "forward"), "fwd_" + label(fn))
        bwd = ctx.ref(proxy(fn, wrt, "backward"), "bwd_" + label(fn))
        call = ast.Call(fwd, ([self_expr] if self_expr is not None else []) + args, kw_nodes)
    else:
        fwd = ctx.ref(call_forward, "call_forward")
        bwd = ctx.ref(call_backward, "call_backward")
        call = ast.Call(fwd, [func, _spec(active)] + args, kw_nodes)
    tape = ctx.namer.claim(target + "_tape")
    primal = ast.Assign([ast.Tuple([ast.Name(target, ast.Store()), ast.Name(tape, ast.Store())], ast.Store())],
                        call)
    s._primal = [ast.copy_location(primal, s)]
    s._tape = tape
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
    rev.contribute(block, has, atom.id, expr)


def _item_key(target, i):
    return f"{target}_{i}" if i >= 0 else f"{target}_neg{-i}"


def _call_results(rev):
    """Call results read item by item: name -> tuple size, or "run time" for a callee found then.

    A run-time callee's result counts only when every read of it is ``t[constant]``."""
    defs = getattr(rev, "_call_defs", None)
    if defs is not None:
        return defs
    import operator
    from ..analysis.activity import walk_assigns
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
        static = getattr(sop.node, "_prim", None)
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
    import operator
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


# --- callees known only at run time ---------------------------------------------------------

_DYNAMIC = {}


def _resolve(fn, spec, nargs, kwnames):
    """(python function or rule, wrt names, bound self or None) for a run-time callee.

    The binding of this call shape to the function's parameters is cached per function."""
    found = user_function(fn)
    if found is None:
        from runtime.rules import registry
        rule = registry.lookup(fn)
        if rule is None or any(not isinstance(k, int) for k in spec):
            name = getattr(fn, "__qualname__", repr(fn))
            raise TypeError(f"adjoin cannot differentiate through {name}: it is neither a Python "
                            "function with source nor a primitive with a derivative rule; define one "
                            "with runtime.rules.define")
        return rule, spec, None
    py, bound = found
    key = (py, spec, nargs, kwnames, bound is not None)
    wrt = _DYNAMIC.get(key)
    if wrt is None:
        sig = inspect.signature(py)
        offset = 0 if bound is None else 1
        marks = [("pos", i) for i in range(nargs + offset)]
        bound_args = sig.bind(*marks, **{k: ("kw", k) for k in kwnames})
        where = {v: p for p, v in bound_args.arguments.items()
                 if sig.parameters[p].kind not in (inspect.Parameter.VAR_POSITIONAL,
                                                   inspect.Parameter.VAR_KEYWORD)}
        try:
            wrt = _DYNAMIC[key] = tuple(where[("pos", k + offset) if isinstance(k, int) else ("kw", k)]
                                        for k in spec)
        except KeyError:
            raise TypeError(f"{py.__qualname__}: a differentiable value passed through *args or "
                            "**kwargs of a function known only at run time; give it a named "
                            "parameter") from None
    return py, wrt, bound


def call_forward(fn, spec, *args, **kwargs):
    """Split forward of a callee found at run time: ``(value, tape)``."""
    target, wrt, bound = _resolve(fn, spec, len(args), tuple(kwargs))
    if not isinstance(target, types.FunctionType):      # a primitive: its rule is the pullback
        value = fn(*args, **kwargs)
        return value, (target, spec, args, kwargs, value)
    if bound is not None:
        args = (bound,) + args
    value, saved = proxy(target, wrt, "forward")(*args, **kwargs)
    return value, (proxy(target, wrt, "backward"), saved)


def call_backward(tape, g):
    """Split backward for ``call_forward``: the gradients of the active arguments, in ``spec`` order."""
    if len(tape) == 2:
        backward, saved = tape
        return backward(saved, g)
    rule, spec, args, kwargs, value = tape
    grads = []
    for i in spec:
        vjp = rule.vjp(i)
        grads.append(np.zeros_like(args[i]) if vjp is None else vjp(g, value, *args, **kwargs))
    return grads[0] if len(grads) == 1 else tuple(grads)


def call_jvp(fn, spec, tangents, *args, **kwargs):
    """Tangent of a callee found at run time: ``(value, tangent)``."""
    target, wrt, bound = _resolve(fn, spec, len(args), tuple(kwargs))
    if not isinstance(target, types.FunctionType):
        value = fn(*args, **kwargs)
        total = 0.0
        for i, t in zip(spec, tangents):
            jvp = target.jvp(i)
            if jvp is not None:
                total = total + jvp(t, value, *args, **kwargs)
        return value, total + np.zeros_like(value)
    if bound is not None:
        args = (bound,) + args
    return proxy(target, wrt, "jvp")(tangents, *args, **kwargs)


# --- showing the callees' code --------------------------------------------------------------

def callee_sources(ctx, seen=None):
    """The generated code of every callee ``ctx``'s function refers to (recursively), as text."""
    seen = set() if seen is None else seen
    parts = []
    for obj in list(ctx.injected.values()):
        if not isinstance(obj, _Proxy) or obj.role == "backward":
            continue
        key = (obj.fn, obj.wrt, obj.role)
        if key in seen:
            continue
        seen.add(key)
        try:
            gen = obj.generated()
        except Exception:          # pragma: no cover - reported when the code runs
            continue
        if gen.ctx is ctx:
            continue
        what = "tangent" if obj.role == "jvp" else "forward/backward pair"
        name = obj.fn.__qualname__
        if name.startswith("__adjoin_bind__."):
            name = f"{obj.fn.__name__} (generated)"
        parts.append(f"# --- {what} of the callee {name} (wrt {', '.join(obj.wrt)}) ---\n"
                     + gen.own_source.rstrip("\n"))
        parts.extend(callee_sources(gen.ctx, seen))
    return parts
