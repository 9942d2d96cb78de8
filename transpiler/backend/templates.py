"""Derivative rules as templates: parse a rule function once, instantiate it with names.

A rule such as ``def multiply_vjp_x(g, ans, x, y): return unbroadcast(g * y, x)`` becomes,
for ``t = a * b``, the expression ``unbroadcast(bt * b, a)``.  Parameters are replaced by
the call's atoms (keywords and defaults bound as Python would bind them), local
temporaries get fresh names, and the rule's own global names (``np``, ``unbroadcast``)
are re-pointed at the same objects from the generated code.  A rule whose body has
control flow (matmul's ``np.ndim`` checks) is not inlined: the generated code calls the
rule function by name instead.
"""

import ast
import builtins
import inspect
import textwrap
import warnings

from runtime.rules import support

from ..core.astutil import as_value, copy_ast

__all__ = ["Template", "template", "instantiate"]

_CACHE = {}


class Template:
    """A parsed rule: its signature and statements."""

    def __init__(self, fn):
        self.fn = fn
        self.signature = inspect.signature(fn)
        node = ast.parse(textwrap.dedent(inspect.getsource(fn))).body[0]
        body = node.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            body = body[1:]
        self.body = body
        self._plans = {}

    def plan(self, nargs, keywords):
        """How a call with ``nargs`` positional arguments and these keyword names binds the
        rule's parameters, as Python would bind them: [(parameter, kind, what)] with kind
        "g", "ans", "arg" (what: the position), "keyword" (what: the name) or "default"
        (what: the default as an AST); None when the call cannot be inlined (it does not
        bind, the rule takes ``*args``/``**kwargs``, or a default is not a plain literal).
        The same for every call site of the rule, so it is worked out once per shape."""
        key = (nargs, keywords)
        if key not in self._plans:
            self._plans[key] = self._bind(nargs, keywords)
        return self._plans[key]

    def _bind(self, nargs, keywords):
        placeholders = [object() for _ in range(nargs)]
        kw_placeholders = {k: object() for k in keywords}
        try:
            bound = self.signature.bind("g", "ans", *placeholders, **kw_placeholders)
        except TypeError:
            return None
        if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in self.signature.parameters.values()):
            return None
        where = {id(p): ("arg", i) for i, p in enumerate(placeholders)}
        where.update({id(p): ("keyword", k) for k, p in kw_placeholders.items()})
        bound.apply_defaults()
        plan = []
        for i, (name, value) in enumerate(bound.arguments.items()):
            if i < 2:
                plan.append((name, "g" if i == 0 else "ans", None))
            elif id(value) in where:
                plan.append((name,) + where[id(value)])
            else:
                lit = literal(value)
                if lit is None:
                    return None
                plan.append((name, "default", lit))
        return plan


def template(fn):
    t = _CACHE.get(fn)
    if t is None:
        t = _CACHE[fn] = Template(fn)
    return t


def literal(value):
    """An AST for a default value, or None when it is not a plain literal."""
    try:
        node = ast.parse(repr(value), mode="eval").body
        if ast.literal_eval(node) == value or value is None:
            return node
    except Exception:
        pass
    return None


class _Subst:
    """A copy of a rule's expression with its parameters replaced (one pass: copying and then
    visiting with an ``ast.NodeTransformer`` took most of the reverse pass's time)."""

    def __init__(self, env, fn, ctx, drop_unbroadcast):
        self.env, self.fn, self.ctx, self.drop = env, fn, ctx, drop_unbroadcast
        self.raw = getattr(env, "raw", {})

    def visit(self, node, _AST=ast.AST, _list=list):
        cls = node.__class__
        if cls is ast.Name:
            return self.name(node)
        if cls is ast.Subscript and node.slice.__class__ is ast.Name and node.slice.id in self.raw:
            # an index parameter substituted into subscript position keeps its slice syntax
            return ast.Subscript(self.visit(node.value), copy_ast(self.raw[node.slice.id]), ast.Load())
        if not cls._fields:
            return node                   # Load, Add: shared, as the parser shares them
        new = cls.__new__(cls)
        d = new.__dict__
        for k, v in node.__dict__.items():
            if v.__class__ is _list:
                d[k] = [self.visit(x) if isinstance(x, _AST) else x for x in v]
            elif isinstance(v, _AST):
                d[k] = self.visit(v)
            else:
                d[k] = v
        if cls is ast.Call and self.drop and new.func.__class__ is ast.Name and len(new.args) == 2 and \
                self.ctx.injected.get(new.func.id, self.ctx.parsed.scope.lookup(new.func.id)) \
                in (support.unbroadcast, support.broadcast_like):
            return new.args[0]
        if cls is ast.IfExp or cls is ast.Compare:
            return _folded(new)
        return new

    def name(self, node):
        if node.id in self.env:
            return copy_ast(self.env[node.id])
        value = self.fn.__globals__.get(node.id, getattr(builtins, node.id, None))
        if value is None:
            return copy_ast(node)
        return ast.copy_location(self.ctx.ref(value, node.id), node)


class _Dynamic(Exception):
    """The rule's control flow depends on run-time values: call it instead of inlining."""


def _static_value(node):
    """Evaluate ``node`` at transform time if it is made of constants only."""
    for n in ast.walk(node):
        if isinstance(n, (ast.Name, ast.Call, ast.Attribute, ast.Subscript)):
            raise _Dynamic
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            code = compile(ast.fix_missing_locations(ast.Expression(node)), "<rule>", "eval")
        return eval(code, {"__builtins__": {}})
    except Exception:
        raise _Dynamic from None


def _folded(node):
    """``-1 is None`` -> ``False`` and ``a if False else b`` -> ``b`` once constants are
    substituted (a literal compared with ``is`` would also make Python warn about the code)."""
    test = node.test if node.__class__ is ast.IfExp else node
    try:
        value = _static_value(test)
    except _Dynamic:
        return node
    if node.__class__ is ast.Compare:
        return ast.Constant(value)
    return node.body if value else node.orelse


def instantiate(fn, ctx, g, ans, args, kwargs, drop_unbroadcast=False, index_params=()):
    """Inline rule ``fn`` for one call site.

    Returns ``(statements, expression)``: statements computing the rule's temporaries and
    the expression it returns (``None`` when the rule returns None: no gradient).
    ``if`` statements whose condition is known at transform time (``where is not None``
    with ``where=None``) are resolved; any other control flow makes the generated code
    call the rule function by name.  ``index_params`` names parameters bound to index
    syntax (``x[:, 0]``), which keep that syntax when the rule subscripts with them.
    """
    if getattr(fn, "call_by_name", False):     # a rule that must stay one call (see adjoint_helpers)
        return [], call_rule(fn, ctx, g, ans, args, kwargs)
    t = template(fn)
    plan = t.plan(len(args), tuple(kwargs))
    if plan is None:
        return [], call_rule(fn, ctx, g, ans, args, kwargs)
    env = _Env()
    env.raw = {}
    for name, kind, what in plan:
        if kind == "g":
            env[name] = g
        elif kind == "ans":
            env[name] = ans
        elif kind == "default":
            env[name] = copy_ast(what)
        else:
            env[name] = args[what] if kind == "arg" else kwargs[what]
            if name in index_params:
                env.raw[name] = env[name]
                env[name] = as_value(env[name])
    stmts = []
    try:
        result = _run(t.body, env, stmts, fn, ctx, drop_unbroadcast)
    except _Dynamic:
        return [], call_rule(fn, ctx, g, ans, args, kwargs)
    if result is None:  # fell off the end: let the rule itself run
        return [], call_rule(fn, ctx, g, ans, args, kwargs)
    return stmts, result


def _run(body, env, stmts, fn, ctx, drop):
    """Symbolically execute rule statements; returns the returned expression or None."""
    subst = _Subst(env, fn, ctx, drop).visit
    for s in body:
        if isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant):
            continue
        if isinstance(s, ast.Return):
            return subst(s.value) if s.value is not None else ast.Constant(None)
        if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name):
            value = subst(s.value)
            name = s.targets[0].id
            env.raw.pop(name, None)
            if isinstance(value, (ast.Name, ast.Constant)):
                env[name] = value
            else:
                local = ctx.namer.temp("r")
                stmts.append(ast.Assign([ast.Name(local, ast.Store())], value))
                env[name] = ast.Name(local, ast.Load())
            continue
        if isinstance(s, ast.If):
            branch = s.body if _static_value(subst(s.test)) else s.orelse
            result = _run(branch, env, stmts, fn, ctx, drop)
            if result is not None:
                return result
            continue
        raise _Dynamic
    return None


class _Env(dict):
    """Parameter bindings; index parameters remember their slice syntax for subscripts."""


def call_rule(fn, ctx, g, ans, args, kwargs, index_params=()):
    """``rule(g, ans, *args, **kwargs)``: the fallback for rules with control flow."""
    fixed = [as_value(a) if isinstance(a, (ast.Slice, ast.Tuple)) and _has_slice(a) else a for a in args]
    return ast.Call(ctx.ref(fn, fn.__name__), [g, ans] + fixed,
                    [ast.keyword(k, v) for k, v in kwargs.items()])


def _has_slice(node):
    return any(isinstance(n, ast.Slice) for n in ast.walk(node))
