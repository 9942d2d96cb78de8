"""Rules written once: a primitive's VJP and JVP rules made from one statement of its derivative.

Four forms; each makes ordinary rule functions, registers them with ``define`` and returns the
decorated function unchanged::

    @elementwise(np.sin)                  # an elementwise function: its derivative, once
    def d_sin(ans, x):
        return np.cos(x)
    # makes  sin_vjp(g, ans, x): return g * np.cos(x)
    #        sin_jvp(t, ans, x): return t * np.cos(x)

    @elementwise(np.arctan2)              # several arguments: one partial derivative each, in
    def d_arctan2(ans, y, x):             # order (None: no gradient); they broadcast, so
        return x / (x * x + y * y), -y / (x * x + y * y)
    # makes  arctan2_vjp_y(g, ans, y, x): return unbroadcast(g * x / (x * x + y * y), y)
    #        arctan2_jvp_y(t, ans, y, x): return broadcast_like(t * x / (x * x + y * y), ans)  ...

    @symmetric(np.sqrt)                   # a VJP that is also the JVP with g read as t (diagonal
    def sqrt_vjp(g, ans, x):              # Jacobians whose rule needs g itself; linear maps that
        return g / (2.0 * ans)            # are their own transpose: flip, tril, swapaxes)
    # makes  sqrt_jvp(t, ans, x): return t / (2.0 * ans)   (jvp_like(f, ...) does this for define)

    @linear(np.fliplr)                    # linear in its first argument: write the transpose; the
    def fliplr_vjp(g, ans, m):            # JVP is the function applied to the tangent
        return np.fliplr(g)
    # makes  fliplr_jvp(t, ans, m): return np.fliplr(t)

    scalar(math.sin, d_sin)               # math.* from the np.* derivative, with math's functions
    # makes (in the calling module)  sin_vjp(g, ans, x): return g * math.cos(x)  ...

A derivative function takes ``ans`` (the primitive's result) and the primitive's parameters and
may assign temporaries before its ``return``.  Products with the cotangent are written the way
one would write them by hand (``g * -np.sin(x)`` as ``-g * np.sin(x)``, ``g * (1.0 / c)`` as
``g / c``), so generated code reads as before.

The made functions are real functions of the family's module (``trig.sin_vjp``): their source
is generated, registered with ``linecache`` under a ``<...>`` file name, so ``inspect.getsource``
reads it as the transpiler's templates need, and the tape calls them as directly as hand-written
ones.
"""

import ast
import builtins
import inspect
import linecache
import sys
import textwrap

from .registry import define
from .support import broadcast_like, unbroadcast

__all__ = ["elementwise", "symmetric", "jvp_like", "linear", "scalar"]


def elementwise(fns, name=None):
    """Register ``fns``' rules made from the derivative the decorated function returns."""
    def make(derivative):
        node = _function_node(derivative)
        params = [a.arg for a in node.args.posonlyargs + node.args.args]
        if not params or params[0] != "ans":
            raise TypeError(f"{derivative.__name__}: a derivative function takes (ans, <the primitive's "
                            f"parameters>), not ({', '.join(params)})")
        vjps, jvps = _partials(derivative, node, name, derivative.__globals__, broadcasting=None)
        define(fns, vjp=vjps, jvp=jvps)
        return derivative
    return make


def scalar(fns, derivative, name=None):
    """Register rules for the ``math`` function ``fns`` made from the numpy ``derivative`` of the same
    function, with ``np.*`` calls read as their ``math`` namesakes (scalar code stays scalar).  The
    rules belong to the calling module."""
    node = _MathNames(derivative.__name__).visit(_function_node(derivative))
    module = sys._getframe(1).f_globals
    for n in ast.walk(node):     # the derivative's other globals must mean the same here
        if isinstance(n, ast.Name) and n.id in derivative.__globals__ and n.id != "np" and \
                module.get(n.id, getattr(builtins, n.id, None)) is not derivative.__globals__[n.id]:
            raise ValueError(f"{derivative.__name__} reads {n.id}, which {module['__name__']} does not import")
    first = fns[0] if isinstance(fns, (tuple, list)) else fns
    vjps, jvps = _partials(derivative, node, name or first.__name__, module, broadcasting=False)
    define(fns, vjp=vjps, jvp=jvps)


def symmetric(fns):
    """Register the decorated VJP rule and, as the JVP rule, the same map (``jvp_like``)."""
    def make(vjp):
        define(fns, vjp=(vjp,), jvp=jvp_like(vjp))
        return vjp
    return make


def jvp_like(*vjps):
    """The JVP rules that are these VJP rules with the cotangent read as the tangent: ``g`` renamed
    ``t`` and ``unbroadcast(e, x)`` read as ``broadcast_like(e, ans)``; None stays None."""
    made = []
    for vjp in vjps:
        if vjp is None:
            made.append(None)
            continue
        node = _function_node(vjp)
        first = (node.args.posonlyargs + node.args.args)[0].arg
        body = [_AsTangent(first).visit(s) for s in _body(node)]
        made.append(_make(vjp.__globals__, _jvp_name(vjp.__name__), _with_first(node.args, "t"), body))
    return tuple(made)


def linear(fns, argnum=0):
    """Register the decorated VJP rule (the transpose) and, as the JVP rule, the primitive applied
    to the tangent in place of argument ``argnum`` (the other parameters passed as they are)."""
    def make(vjp):
        first = fns[0] if isinstance(fns, (tuple, list)) else fns
        node = _function_node(vjp)
        args = node.args
        params = [a.arg for a in args.posonlyargs + args.args][2:]
        call = ast.Call(_expression_for(first, vjp.__globals__),
                        [ast.Name("t" if i == argnum else p, ast.Load()) for i, p in enumerate(params)]
                        + ([ast.Starred(ast.Name(args.vararg.arg, ast.Load()), ast.Load())] if args.vararg else []),
                        [ast.keyword(a.arg, ast.Name(a.arg, ast.Load())) for a in args.kwonlyargs])
        jvp = _make(vjp.__globals__, _jvp_name(vjp.__name__), _with_first(args, "t"), [ast.Return(call)])
        entries = [None] * (argnum + 1)
        vjps, jvps = list(entries), list(entries)
        vjps[argnum], jvps[argnum] = vjp, jvp
        define(fns, vjp=vjps, jvp=jvps)
        return vjp
    return make


# --- making rule functions ------------------------------------------------------------------------

def _partials(derivative, node, name, module, broadcasting):
    """(vjps, jvps) made from a derivative function's node: one pair per entry of its returned tuple
    (or for its first parameter when it returns one expression)."""
    body = _body(node)
    if not body or not isinstance(body[-1], ast.Return) or body[-1].value is None:
        raise TypeError(f"{derivative.__name__}: a derivative function ends with `return <derivative>`")
    *stmts, ret = body
    params = [a.arg for a in node.args.posonlyargs + node.args.args][1:]
    parts = ret.value.elts if isinstance(ret.value, ast.Tuple) else [ret.value]
    if len(parts) > len(params):
        raise TypeError(f"{derivative.__name__} returns {len(parts)} partial derivatives for {len(params)} parameters")
    if broadcasting is None:
        broadcasting = isinstance(ret.value, ast.Tuple)
    if broadcasting:
        _require(module, "unbroadcast", unbroadcast)
        _require(module, "broadcast_like", broadcast_like)
    base = name or (derivative.__name__[2:] if derivative.__name__.startswith("d_") else derivative.__name__)
    several = sum(not _is_none(d) for d in parts) > 1
    rule_args = _with_first(node.args, "g")
    vjps, jvps = [], []
    for param, d in zip(params, parts):
        if _is_none(d):
            vjps.append(None)
            jvps.append(None)
            continue
        suffix = f"_{param}" if several else ""
        needed = _needed(stmts, d)
        v, t = _times(ast.Name("g", ast.Load()), d), _times(ast.Name("t", ast.Load()), d)
        if broadcasting:
            v = _call("unbroadcast", v, ast.Name(param, ast.Load()))
            t = _call("broadcast_like", t, ast.Name("ans", ast.Load()))
        vjps.append(_make(module, f"{base}_vjp{suffix}", rule_args, needed + [ast.Return(v)]))
        jvps.append(_make(module, f"{base}_jvp{suffix}", _with_first(rule_args, "t"), needed + [ast.Return(t)]))
    return tuple(vjps), tuple(jvps)


def _make(module, name, args, body):
    """A function ``name(args): body`` defined in ``module`` (its globals) from generated source."""
    if name in module:
        raise ValueError(f"{module['__name__']}.{name} exists already: a made rule would replace it")
    fn = ast.FunctionDef(name, args, body, [], None, None)
    if "type_params" in ast.FunctionDef._fields:
        fn.type_params = []
    source = ast.unparse(ast.fix_missing_locations(ast.Module([fn], []))) + "\n"
    filename = f"<{module['__name__']}.{name}, a made rule>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(compile(source, filename, "exec"), module)
    return module[name]


def _function_node(fn):
    node = ast.parse(textwrap.dedent(inspect.getsource(fn))).body[0]
    node.decorator_list = []
    return node


def _body(node):
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]         # the docstring
    return body


def _with_first(args, first):
    """``args`` with ``first`` as its first parameter (replacing the one there, when it is g or t)."""
    new = ast.arguments(posonlyargs=list(args.posonlyargs), args=list(args.args), vararg=args.vararg,
                        kwonlyargs=args.kwonlyargs, kw_defaults=args.kw_defaults, kwarg=args.kwarg,
                        defaults=args.defaults)
    where = new.posonlyargs if new.posonlyargs else new.args
    if where and where[0].arg in ("g", "t", "h"):
        where[0] = ast.arg(first)
    else:
        where.insert(0, ast.arg(first))
    return new


def _jvp_name(vjp_name):
    if "_vjp" not in vjp_name:
        raise ValueError(f"{vjp_name}: a VJP rule's name contains _vjp (its JVP's name replaces it with _jvp)")
    head, _, tail = vjp_name.rpartition("_vjp")
    return f"{head}_jvp{tail}"


def _require(module, name, obj):
    if module.setdefault(name, obj) is not obj:
        raise ValueError(f"{module['__name__']}.{name} is not support.{name}, which made rules call")


def _is_none(node):
    return isinstance(node, ast.Constant) and node.value is None


def _call(name, *args):
    return ast.Call(ast.Name(name, ast.Load()), list(args), [])


def _needed(stmts, expr):
    """The statements (``name = value``) computing the names ``expr`` reads, in order."""
    wanted = {n.id for n in ast.walk(expr) if isinstance(n, ast.Name)}
    kept = []
    for s in reversed(stmts):
        if not (isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)):
            raise TypeError("a derivative function assigns names before its return, nothing else")
        if s.targets[0].id in wanted:
            kept.append(s)
            wanted |= {n.id for n in ast.walk(s.value) if isinstance(n, ast.Name)}
    return kept[::-1]


def _times(v, d):
    """``v * d`` written as by hand: ``v`` for 1, ``-v * e`` for ``-e``, ``v / e`` for ``1 / e``,
    ``v * a * b`` for ``a * b`` and ``v * a / b`` for ``a / b``."""
    if isinstance(d, ast.Constant) and d.value == 1 and not isinstance(d.value, bool):
        return v
    if isinstance(d, ast.UnaryOp) and isinstance(d.op, ast.USub):
        return _times(ast.UnaryOp(ast.USub(), v), d.operand)
    if isinstance(d, ast.BinOp) and isinstance(d.op, (ast.Mult, ast.Div)):
        return ast.BinOp(_times(v, d.left), d.op, d.right)
    return ast.BinOp(v, ast.Mult(), d)


class _AsTangent(ast.NodeTransformer):
    """A VJP body read as its JVP: the cotangent's name becomes ``t``; ``unbroadcast(e, x)``
    (summing onto an argument's shape) becomes ``broadcast_like(e, ans)`` (spreading to the result's)."""

    def __init__(self, cotangent):
        self.cotangent = cotangent

    def visit_Name(self, node):
        return ast.Name("t", node.ctx) if node.id == self.cotangent else node

    def visit_Call(self, node):
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id == "unbroadcast" and len(node.args) == 2:
            node.func.id = "broadcast_like"
            node.args[1] = ast.Name("ans", ast.Load())
        return node


# numpy's names of the functions ``math`` has under another name (the rest are namesakes)
_MATH_NAMES = {"arcsin": "asin", "arccos": "acos", "arctan": "atan", "arcsinh": "asinh", "arccosh": "acosh",
               "arctanh": "atanh", "arctan2": "atan2", "power": "pow", "absolute": "fabs", "abs": "fabs"}


class _MathNames(ast.NodeTransformer):
    """``np.cos(x)`` -> ``math.cos(x)``; a numpy name without a ``math`` counterpart is an error."""

    def __init__(self, owner):
        self.owner = owner

    def visit_Attribute(self, node):
        if isinstance(node.value, ast.Name) and node.value.id == "np":
            name = _MATH_NAMES.get(node.attr, node.attr)
            import math
            if not hasattr(math, name):
                raise ValueError(f"{self.owner} calls np.{node.attr}, which math has no counterpart of: "
                                 f"write the math function's rules by hand")
            return ast.Attribute(ast.Name("math", ast.Load()), name, node.ctx)
        return self.generic_visit(node)


def _expression_for(fn, module):
    """An expression naming ``fn`` in ``module``'s code: a global bound to it, or ``np.<name>`` (and
    ``np.linalg.<name>``, ``np.fft.<name>``)."""
    for key, value in module.items():
        if value is fn and not key.startswith("_"):
            return ast.Name(key, ast.Load())
    np = module.get("np")
    name = getattr(fn, "__name__", None)
    for path in ((), ("linalg",), ("fft",)):
        obj = np
        for part in path:
            obj = getattr(obj, part, None)
        if np is not None and name and getattr(obj, name, None) is fn:
            node = ast.Name("np", ast.Load())
            for part in path + (name,):
                node = ast.Attribute(node, part, ast.Load())
            return node
    raise ValueError(f"no name in {module['__name__']} reaches {fn!r}: import it there")
