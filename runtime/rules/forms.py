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

    namesake(scipy.special.gammaln, special.d_lgamma, "gammaln")   # another library's namesake:
    # makes (in the calling module)  gammaln_vjp(g, ans, x): return g * digamma(x)   (scipy's digamma)

A derivative function takes ``ans`` (the primitive's result) and the primitive's parameters and
may assign temporaries before its ``return``.  Products with the cotangent are written the way
one would write them by hand (``g * -np.sin(x)`` as ``-g * np.sin(x)``, ``g * (1.0 / c)`` as
``g / c``), so generated code reads as before.

The made functions are real functions of the family's module (``trig.sin_vjp``): their source
is generated, registered with ``linecache`` under a ``<...>`` file name, so ``inspect.getsource``
reads it as the transpiler's templates need, and the tape calls them as directly as hand-written
ones.  Making them (parsing, writing, compiling) costs about a millisecond per primitive, so what
is made is kept beside the module's bytecode (``_Made``) and read back by later imports.
"""

import ast
import builtins
import importlib.util
import inspect
import linecache
import marshal
import os
import sys
import textwrap

from .registry import define
from .support import broadcast_like, shape_of, unbroadcast

__all__ = ["elementwise", "namesake", "symmetric", "jvp_like", "linear", "transposes", "reshaping", "scalar"]


def elementwise(fns, name=None, broadcasting=None):
    """Register ``fns``' rules made from the derivative the decorated function returns.  Partial
    derivatives returned as a tuple are of arguments that broadcast together (``broadcasting=False``
    when they do not: an order ``n`` beside the array)."""
    def make(derivative):
        key = f"elementwise {derivative.__qualname__} {name} {broadcasting}"
        layout, made = _made(derivative.__globals__, key, derivative,
                             lambda: _partials(derivative, _function_node(derivative), name, broadcasting))
        define(fns, vjp=_laid_out(layout["vjp"], made), jvp=_laid_out(layout["jvp"], made))
        return derivative
    return make


def scalar(fns, derivative=None, name=None):
    """Register rules for the ``math`` function (or builtin) ``fns`` made from ``derivative`` as
    ``elementwise`` does, without broadcasting, and with ``np.*`` calls read as their ``math``
    namesakes: a numpy function's derivative serves its ``math`` twin, and scalar code stays
    scalar.  The rules belong to the calling module.  Without ``derivative``, a decorator."""
    if derivative is None:
        def make(d):
            _scalar(fns, d, name, d.__globals__)
            return d
        return make
    _scalar(fns, derivative, name, sys._getframe(1).f_globals)
    return derivative


def namesake(fns, derivative, name=None, broadcasting=None):
    """Register ``fns``' rules made, as ``elementwise`` makes them, from ``derivative`` -- the
    derivative of another family's function of the same name -- in the calling module, where the
    functions it calls are this family's namesakes (``scipy.special.digamma`` for adjoin's own
    ``digamma``): one statement of the derivative, each library's own functions in its code."""
    module = sys._getframe(1).f_globals

    def write():
        node = _function_node(derivative)
        for n in ast.walk(node):
            if isinstance(n, ast.Name) and n.id in derivative.__globals__ and \
                    n.id not in module and not hasattr(builtins, n.id):
                raise ValueError(f"{derivative.__name__} reads {n.id}, which {module['__name__']} does not bind")
        return _partials(derivative, node, name, broadcasting)

    key = f"namesake {derivative.__module__}.{derivative.__qualname__} {name} {broadcasting}"
    layout, made = _made(module, key, derivative, write)
    define(fns, vjp=_laid_out(layout["vjp"], made), jvp=_laid_out(layout["jvp"], made))
    return derivative


def _scalar(fns, derivative, name, module):
    first = fns[0] if isinstance(fns, (tuple, list)) else fns
    name = name or first.__name__

    def write():
        node = _MathNames(derivative.__name__).visit(_function_node(derivative))
        for n in ast.walk(node):     # the derivative's other globals must mean the same here
            if isinstance(n, ast.Name) and n.id in derivative.__globals__ and n.id != "np" and \
                    not _same(module.get(n.id, getattr(builtins, n.id, None)), derivative.__globals__[n.id]):
                raise ValueError(f"{derivative.__name__} reads {n.id}, which {module['__name__']} does not import")
        return _partials(derivative, node, name, broadcasting=False)

    layout, made = _made(module, f"scalar {derivative.__module__}.{derivative.__qualname__} {name}", derivative, write)
    define(fns, vjp=_laid_out(layout["vjp"], made), jvp=_laid_out(layout["jvp"], made))


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

        def write(vjp=vjp):
            node = _function_node(vjp)
            params = [a.arg for a in node.args.posonlyargs + node.args.args]
            t = "s" if "t" in params else "t"       # (not a parameter's name)
            body = [_AsTangent(params[0], t, params[1]).visit(s) for s in _body(node)]
            spreads = any(isinstance(n, ast.Name) and n.id == "broadcast_like" for s in body for n in ast.walk(s))
            name = _jvp_name(vjp.__name__)
            return ({"jvp": (name,), "requires": ("broadcast_like",) if spreads else ()},
                    [(name, _source(name, _with_first(node.args, t), body))])

        layout, functions = _made(vjp.__globals__, f"jvp_like {vjp.__qualname__}", vjp, write)
        made += _laid_out(layout["jvp"], functions)
    return tuple(made)


def linear(fns, argnum=0):
    """Register the decorated VJP rule (the transpose) and, as the JVP rule, the primitive applied
    to the tangent in place of argument ``argnum`` (the other parameters passed as they are)."""
    def make(vjp):
        first = fns[0] if isinstance(fns, (tuple, list)) else fns

        def write():
            node = _function_node(vjp)
            name = _jvp_name(vjp.__name__)
            call = _applied(first, vjp.__globals__, node.args, argnum)
            return {"jvp": (name,)}, [(name, _source(name, _with_first(node.args, "t"), [ast.Return(call)]))]

        layout, made = _made(vjp.__globals__, f"linear {vjp.__qualname__} {argnum}", vjp, write)
        vjps, jvps = [None] * (argnum + 1), [None] * (argnum + 1)
        vjps[argnum], jvps[argnum] = vjp, made[layout["jvp"][0]]
        define(fns, vjp=vjps, jvp=jvps)
        return vjp
    return make


def transposes(f, f_t, params, vjp=(), jvp=()):
    """Register rules for two linear functions, each the other's transpose (``fftshift`` and
    ``ifftshift``), linear in their first argument: the VJP of one is the other applied to the
    cotangent, the JVP the function itself applied to the tangent.  ``params`` are the parameters
    they share, as written in a ``def``; ``vjp`` / ``jvp`` the rules of the other parameters
    (default: none)."""
    module = sys._getframe(1).f_globals
    for fn, other in ((f, f_t), (f_t, f)):
        def write(fn=fn, other=other):
            names = {a.strip().split("=")[0] for a in params.split(",")}
            g, t = ("h" if "g" in names else "g"), ("s" if "t" in names else "t")     # not a parameter's name
            vjp_args = ast.parse(f"def f({g}, ans, {params}): pass").body[0].args
            jvp_args = ast.parse(f"def f({t}, ans, {params}): pass").body[0].args
            v, j = f"{fn.__name__}_vjp", f"{fn.__name__}_jvp"
            return {"vjp": (v,), "jvp": (j,)}, [
                (v, _source(v, vjp_args, [ast.Return(_applied(other, module, vjp_args, 0, g))])),
                (j, _source(j, jvp_args, [ast.Return(_applied(fn, module, jvp_args, 0, t))]))]

        layout, made = _made(module, f"transposes {fn.__name__} {params}", None, write)
        define(fn, vjp=_laid_out(layout["vjp"], made) + tuple(vjp), jvp=_laid_out(layout["jvp"], made) + tuple(jvp))


def reshaping(fns, params):
    """Register rules for ``fns``, which only change the shape of their first argument (its elements
    keep their order): the VJP reshapes the cotangent back to the argument's shape, the JVP is the
    function of the tangent.  ``params`` are the primitive's parameters as written in a ``def``."""
    first = fns[0] if isinstance(fns, (tuple, list)) else fns
    module = sys._getframe(1).f_globals

    def write():
        args = ast.parse(f"def f(g, ans, {params}): pass").body[0].args
        back = ast.parse(f"np.reshape(g, shape_of({(args.posonlyargs + args.args)[2].arg}))", mode="eval").body
        v, j = f"{first.__name__}_vjp", f"{first.__name__}_jvp"
        return {"vjp": (v,), "jvp": (j,), "requires": ("shape_of",)}, [
            (v, _source(v, args, [ast.Return(back)])),
            (j, _source(j, _with_first(args, "t"), [ast.Return(_applied(first, module, args, 0))]))]

    layout, made = _made(module, f"reshaping {first.__name__} {params}", None, write)
    define(fns, vjp=_laid_out(layout["vjp"], made), jvp=_laid_out(layout["jvp"], made))


def _applied(fn, module, args, argnum, v="t"):
    """``fn(...)`` with ``v`` (the tangent) for argument ``argnum`` and the rule's other parameters
    passed on: positionally where they have no default, else by keyword."""
    positional = [a.arg for a in args.posonlyargs + args.args][2:]
    with_default = set(positional[len(positional) - len(args.defaults):]) if args.defaults else set()
    call = ast.Call(_expression_for(fn, module), [], [])
    for i, p in enumerate(positional):
        value = ast.Name(v if i == argnum else p, ast.Load())
        if p in with_default and i != argnum:
            call.keywords.append(ast.keyword(p, value))
        else:
            call.args.append(value)
    if args.vararg:
        call.args.append(ast.Starred(ast.Name(args.vararg.arg, ast.Load()), ast.Load()))
    call.keywords += [ast.keyword(a.arg, ast.Name(a.arg, ast.Load())) for a in args.kwonlyargs]
    return call


# --- making rule functions ------------------------------------------------------------------------

def _partials(derivative, node, name, broadcasting):
    """(layout, sources) of the rules made from a derivative function's node: one VJP and one JVP
    per entry of its returned tuple (or for its first parameter when it returns one expression)."""
    params = [a.arg for a in node.args.posonlyargs + node.args.args]
    if not params or params[0] != "ans":
        raise TypeError(f"{derivative.__name__}: a derivative function takes (ans, <the primitive's "
                        f"parameters>), not ({', '.join(params)})")
    body = _body(node)
    if not body or not isinstance(body[-1], ast.Return) or body[-1].value is None:
        raise TypeError(f"{derivative.__name__}: a derivative function ends with `return <derivative>`")
    *stmts, ret = body
    parts = ret.value.elts if isinstance(ret.value, ast.Tuple) else [ret.value]
    if len(parts) > len(params) - 1:
        raise TypeError(f"{derivative.__name__} returns {len(parts)} partial derivatives for "
                        f"{len(params) - 1} parameters")
    if broadcasting is None:
        broadcasting = isinstance(ret.value, ast.Tuple)
    base = name or (derivative.__name__[2:] if derivative.__name__.startswith("d_") else derivative.__name__)
    several = sum(not _is_none(d) for d in parts) > 1
    rule_args = _with_first(node.args, "g")
    layout = {"vjp": [], "jvp": [], "requires": ("unbroadcast", "broadcast_like") if broadcasting else ()}
    sources = []
    for param, d in zip(params[1:], parts):
        if _is_none(d):
            layout["vjp"].append(None)
            layout["jvp"].append(None)
            continue
        suffix = f"_{param}" if several else ""
        needed = _needed(stmts, d)
        v, t = _times(ast.Name("g", ast.Load()), d), _times(ast.Name("t", ast.Load()), d)
        if broadcasting:
            v = _call("unbroadcast", v, ast.Name(param, ast.Load()))
            t = _call("broadcast_like", t, ast.Name("ans", ast.Load()))
        vname, jname = f"{base}_vjp{suffix}", f"{base}_jvp{suffix}"
        layout["vjp"].append(vname)
        layout["jvp"].append(jname)
        sources.append((vname, _source(vname, rule_args, needed + [ast.Return(v)])))
        sources.append((jname, _source(jname, _with_first(rule_args, "t"), needed + [ast.Return(t)])))
    return layout, sources


def _source(name, args, body):
    """The text of ``def name(args): body``."""
    fn = ast.FunctionDef(name, args, body, [], None, None)
    if "type_params" in ast.FunctionDef._fields:
        fn.type_params = []
    return ast.unparse(ast.fix_missing_locations(ast.Module([fn], []))) + "\n"


def _laid_out(names, functions):
    return tuple(None if n is None else functions[n] for n in names)


# --- made rules, and the cache that spares later imports their making -------------------------------

_HELPERS = {"unbroadcast": unbroadcast, "broadcast_like": broadcast_like, "shape_of": shape_of}
"""The helpers made rules call, put in the module's namespace where it does not import them."""


def _made(module, key, source_of, write):
    """(layout, {name: function}) of the rules ``key`` makes in ``module`` (its globals): from the
    module's cache of made rules, else ``write() -> (layout, [(name, source)])``, compiled and kept.
    ``source_of``: the function whose source they are made from (its file is watched)."""
    cache = _Made.of(module)
    entry = cache.entries.get(key)
    if entry is None:
        layout, sources = write()
        entry = (layout, [(name, text, compile(text, _filename(module, name), "exec")) for name, text in sources])
        cache.add(key, entry, getattr(getattr(source_of, "__code__", None), "co_filename", None))
    layout, made = entry
    for name in layout.get("requires", ()):
        if module.setdefault(name, _HELPERS[name]) is not _HELPERS[name]:
            raise ValueError(f"{module['__name__']}.{name} is not support.{name}, which made rules call")
    functions = {}
    for name, text, code in made:
        if name in module:
            raise ValueError(f"{module['__name__']}.{name} exists already: a made rule would replace it")
        filename = _filename(module, name)
        linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
        exec(code, module)
        functions[name] = module[name]
    return layout, functions


def _filename(module, name):
    return f"<{module['__name__']}.{name}, a made rule>"


class _Made:
    """The rules made in one module, kept beside its bytecode (``__pycache__/<module>.<tag>.made``,
    written where bytecode is written): key -> (layout, [(name, source, code)]).  Valid while the
    files they were made from (the module's, its derivatives', this one) and numpy's version are."""

    _ALL = {}

    @classmethod
    def of(cls, module):
        name = module["__name__"]
        if name not in cls._ALL:
            cls._ALL[name] = cls(module.get("__file__"))
        return cls._ALL[name]

    def __init__(self, file):
        self.entries, self.files, self.path = {}, {}, None
        if file is None:
            return
        try:
            self.path = importlib.util.cache_from_source(file)[:-len(".pyc")] + ".made"
        except (NotImplementedError, ValueError):
            return
        self.watch(file)
        self.watch(__file__)
        try:
            with open(self.path, "rb") as f:
                version, files, entries = marshal.load(f)
        except (OSError, EOFError, ValueError, TypeError):
            return
        if version == _VERSION and all(_stat(path) == stat for path, stat in files.items()):
            self.files.update(files)
            self.entries = entries

    def watch(self, path):
        if path is not None and path not in self.files:
            self.files[path] = _stat(path)

    def add(self, key, entry, source_file):
        self.entries[key] = entry
        self.watch(source_file)
        if self.path is None or sys.dont_write_bytecode:
            return
        try:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            partial = f"{self.path}.{os.getpid()}"
            with open(partial, "wb") as f:
                marshal.dump((_VERSION, self.files, self.entries), f)
            os.replace(partial, self.path)
        except OSError:
            pass            # a read-only installation: made again next time


def _stat(path):
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size)


def _numpy_version():
    import numpy
    return numpy.__version__


_VERSION = f"{sys.implementation.cache_tag} numpy {_numpy_version()}"


def _function_node(fn):
    """The ``def`` of ``fn``, decorators dropped: parsed from the lines of its file that the ``def``
    and its body span (``inspect.getsource`` tokenizes them and searches the modules)."""
    code = fn.__code__
    linecache.checkcache(code.co_filename)          # (the file may have changed since it was read)
    lines = linecache.getlines(code.co_filename)
    start = code.co_firstlineno - 1
    indent = _indent(lines[start]) if start < len(lines) else 0
    end = start
    while end < len(lines) and _indent(lines[end]) == indent and lines[end].lstrip().startswith("@"):
        end += 1                                    # decorators
    end += 1                                        # the def line
    while end < len(lines) and (not lines[end].strip() or lines[end].lstrip().startswith(("#", ")"))
                                or _indent(lines[end]) > indent):
        end += 1
    try:
        node = ast.parse(textwrap.dedent("".join(lines[start:end]))).body[0]
    except (SyntaxError, IndexError):
        node = None
    if not isinstance(node, ast.FunctionDef) or node.name != fn.__name__:
        node = ast.parse(textwrap.dedent(inspect.getsource(fn))).body[0]
    node.decorator_list = []
    return node


def _indent(line):
    return len(line) - len(line.lstrip())


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
    if where and where[0].arg in ("g", "t", "h", "s"):
        where[0] = ast.arg(first)
    else:
        where.insert(0, ast.arg(first))
    return new


def _jvp_name(vjp_name):
    if "_vjp" not in vjp_name:
        raise ValueError(f"{vjp_name}: a VJP rule's name contains _vjp (its JVP's name replaces it with _jvp)")
    head, _, tail = vjp_name.rpartition("_vjp")
    return f"{head}_jvp{tail}"


def _same(a, b):
    return a is b or type(a) is type(b) is float and a == b


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
    """A VJP body read as its JVP: the cotangent's name becomes the tangent's; ``unbroadcast(e, x)``
    (summing onto an argument's shape) becomes ``broadcast_like(e, ans)`` (spreading to the result's)."""

    def __init__(self, cotangent, tangent, ans):
        self.cotangent, self.tangent, self.ans = cotangent, tangent, ans

    def visit_Name(self, node):
        return ast.Name(self.tangent, node.ctx) if node.id == self.cotangent else node

    def visit_Call(self, node):
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id == "unbroadcast" and len(node.args) == 2:
            node.func.id = "broadcast_like"
            node.args[1] = ast.Name(self.ans, ast.Load())
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
