"""scipy calls written as what adjoin differentiates (run before the other rewrites of a function).

scipy's ufuncs (``scipy.special.gammaln``) and the scipy functions with rules (``logsumexp``,
``scipy.signal.convolve``) are primitives the transpiler finds by identity, as numpy's.  Other
scipy callables are written here as calls adjoin can differentiate -- scipy's own source, which
converts and writes arrays in place, is never read:

* a scipy.stats method, frozen or not (``norm.logpdf(x, m, s)``, ``norm(m, s).cdf(x)`` with
  ``norm(m, s)`` made before the function or in it) -> its twin in runtime/rules/scipy_stats.py,
  a composition of primitives that the transpiler differentiates like a user function, with the
  frozen parameters passed by name (``rv = norm(m, s)`` in the function binds them to fresh
  names: ``rv_loc = m`` ...; then ``rv`` may only have its methods called);
* a differentiable argument given by keyword to a scipy primitive (``logsumexp(a, b=w)``) ->
  positional (the rules take arguments by position); ``logsumexp(..., return_sign=True)`` -> its
  two-result composition ``logsumexp_with_sign``;
* ``scipy.fft.f(...)`` -> ``np.fft.f(...)`` (``workers``/``overwrite_x`` only change how scipy
  computes; ``plan`` is refused);
* ``runtime.scipy`` names as the scipy names they mirror, so one program runs in both halves.
"""

import ast
import inspect
import sys
import types

import numpy as np

from ...core.astutil import walk
from ...core.callables import register_twins
from ...core.errors import Unresolved
from ..traversal import Transformer

__all__ = ["rewrite", "twin_of"]

_RETURN_SIGN = "logsumexp"


def rewrite(body, ctx):
    """``body`` with its scipy calls rewritten as above (as it is when scipy is not loaded)."""
    if "scipy" not in sys.modules:
        return body
    calls = _ScipyCalls(ctx)
    body = calls.frozen_locals(body)
    return [calls.visit(s) for s in body]


class _ScipyCalls(Transformer):
    def __init__(self, ctx):
        self.ctx = ctx
        node = ctx.parsed.node
        self.local = ctx.user_stored | {a.arg for a in walk(node.args) if isinstance(a, ast.arg)}
        self.frozen = {}            # local name -> (distribution name, {parameter: fresh name})
        from runtime.rules import scipy_stats
        self.stats = scipy_stats

    # --- resolving ------------------------------------------------------------------------------

    def resolve(self, func):
        """The object a dotted name rooted at a global or closure name stands for, else None."""
        root = func
        while isinstance(root, ast.Attribute):
            root = root.value
        if not isinstance(root, ast.Name) or root.id in self.local:
            return None
        try:
            return self.ctx.parsed.scope.evaluate(func)
        except (Unresolved, Exception):
            return None

    def ref(self, obj, name):
        node = self.ctx.ref(obj, name)
        self.ctx.parsed.scope.closure.setdefault(node.id, obj)
        return node

    # --- frozen distributions made in the function ------------------------------------------------

    def frozen_locals(self, body):
        """Find ``rv = dist(...)`` of a scipy.stats distribution; rewrite those statements."""
        assigned = {}
        for node in walk(ast.Module(body, [])):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                    and isinstance(node.value, ast.Call):
                dist = self.distribution(self.resolve(node.value.func))
                if dist is not None:
                    assigned.setdefault(node.targets[0].id, set()).add(dist)
        if not assigned:
            return body
        for name, dists in assigned.items():
            self.check_frozen_uses(body, name, dists)
            dist = dists.pop()
            fresh = {p: self.ctx.namer.claim(f"{name}_{p}") for p in self.stats.parameters(dist)}
            self.frozen[name] = (dist, fresh)
        return [self.freeze(s) for s in body]

    def distribution(self, obj):
        """The name of the scipy.stats (or runtime.scipy.stats) distribution ``obj``, else None."""
        if obj is None:
            return None
        name = self.stats.distribution_name(obj)
        if name is None and type(obj).__module__ == "runtime.scipy.stats" and hasattr(obj, "scipy"):
            name = self.stats.distribution_name(obj.scipy)
        return name

    def check_frozen_uses(self, body, name, dists):
        """``name`` holds a frozen distribution: it must be made only so, and only have methods called."""
        method_bases = set()
        for node in walk(ast.Module(body, [])):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == name:
                method_bases.add(id(node.func.value))
        for node in walk(ast.Module(body, [])):
            bad = None
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.With, ast.NamedExpr)):
                targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
                for t in targets:
                    if any(isinstance(n, ast.Name) and n.id == name for n in walk(t) if t is not None) and not (
                            isinstance(node, ast.Assign) and isinstance(t, ast.Name) and isinstance(node.value, ast.Call)
                            and self.distribution(self.resolve(node.value.func)) is not None):
                        bad = "it is also bound to another value"
            elif isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load) \
                    and id(node) not in method_bases:
                bad = "it is used as a value (only its methods can be called: rv.logpdf(x), rv.cdf(x), ...)"
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and id(node.func.value) in method_bases:
                dist = next(iter(dists))
                if (dist, node.func.attr) not in self.stats.TWINS:
                    bad = (f"{dist}().{node.func.attr}() has no differentiable form in adjoin (the frozen "
                           f"distribution's {', '.join(sorted(m for d, m in self.stats.TWINS if d == dist))} have)")
            if bad is None and len(dists) > 1:
                bad = f"it holds different distributions ({', '.join(sorted(dists))})"
            if bad is not None:
                raise self.ctx.error(f"`{name}` holds a frozen scipy.stats distribution, and {bad}", node,
                                     "call the distribution's methods with its parameters instead: "
                                     "norm.logpdf(x, loc, scale)")

    def freeze(self, stmt):
        """``rv = norm(m, s)`` -> ``rv_loc = m; rv_scale = s`` (in nested statements too)."""
        if isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name) and stmt.targets[0].id in self.frozen:
            dist, fresh = self.frozen[stmt.targets[0].id]
            call = stmt.value
            try:
                bound = self.stats.bind_parameters(dist, call.args, {k.arg: k.value for k in call.keywords})
            except TypeError as e:
                raise self.ctx.error(f"{dist}(...): {e}", call, "pass the distribution's parameters") from None
            values, defaults = [], self.stats.defaults(dist)
            for p in fresh:                 # every parameter, so none keeps an earlier freeze's value
                if p in bound:
                    values.append(self.visit(bound[p]))
                elif p in defaults:
                    values.append(ast.Constant(defaults[p]))
                else:
                    raise self.ctx.error(f"{dist}(...) without its parameter `{p}`", call, f"pass {p}")
            new = ast.Assign([ast.Tuple([ast.Name(fresh[p], ast.Store()) for p in fresh], ast.Store())],
                             ast.Tuple(values, ast.Load()))
            return ast.fix_missing_locations(ast.copy_location(new, stmt))
        for field in ("body", "orelse", "finalbody", "handlers"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list):
                setattr(stmt, field, [self.freeze(s) if isinstance(s, ast.stmt) else s for s in inner])
        return stmt

    # --- calls ---------------------------------------------------------------------------------

    def visit_Call(self, node):
        self.generic_visit(node)
        func = node.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in self.frozen:
            dist, fresh = self.frozen[func.value.id]
            twin = self.stats.TWINS[dist, func.attr]
            takes = set(inspect.signature(twin).parameters)
            params = {p: ast.Name(fresh[p], ast.Load()) for p in fresh if p in takes}
            return self.twin_call(node, twin, params)
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call):    # norm(m, s).logpdf(x)
            dist = self.distribution(self.resolve(func.value.func))
            if dist is not None:
                return self.inline_frozen_call(node, dist, func.value)
        obj = self.resolve(func)
        if obj is None or isinstance(obj, np.ufunc):
            return node
        found = self.stats.twin_call(obj) if isinstance(obj, types.MethodType) or hasattr(obj, "__adjoin_twin_call__") \
            else None
        if found is not None:
            twin, frozen = found
            return self.twin_call(node, twin, {p: self.ref(v, p) for p, v in frozen.items()})
        obj = _mirrored(obj)
        if _module_of(obj).startswith("scipy.fft"):
            return self.fft_call(node, obj)
        return self.primitive_call(node, obj)

    def inline_frozen_call(self, node, dist, made):
        """``dist(params).method(x)`` -> ``twin(x, **params)``."""
        method = node.func.attr
        twin = self.stats.TWINS.get((dist, method))
        if twin is None:
            return node
        try:
            bound = self.stats.bind_parameters(dist, made.args, {k.arg: k.value for k in made.keywords})
        except TypeError as e:
            raise self.ctx.error(f"{dist}(...): {e}", made, "pass the distribution's parameters") from None
        takes = inspect.signature(twin).parameters
        return self.twin_call(node, twin, {p: v for p, v in bound.items() if p in takes})

    def twin_call(self, node, twin, params):
        """``twin(args..., **params)``: the twin's parameters after the first, given as keywords."""
        if any(k.arg is None for k in node.keywords) or any(isinstance(a, ast.Starred) for a in node.args):
            return node
        call = ast.Call(self.ref(twin, twin.__name__), list(node.args),
                        list(node.keywords) + [ast.keyword(p, v) for p, v in params.items()])
        try:
            inspect.signature(twin).bind(*call.args, **{k.arg: k.value for k in call.keywords})
        except TypeError as e:
            name = twin.__name__.replace("_", ".", 1)
            raise self.ctx.error(f"{name}(): {e}", node, "pass the arguments scipy's method takes") from None
        return ast.fix_missing_locations(ast.copy_location(call, node))

    def primitive_call(self, node, fn):
        """A scipy primitive: differentiable keywords moved to their positions; logsumexp's return_sign."""
        from runtime.rules import registry
        try:
            rule = registry.lookup(fn)
        except TypeError:
            return node
        if rule is None or not (registry.REGISTERED_IN.get(fn) or "").startswith("runtime.rules.scipy"):
            return node
        func = node.func if _mirrored(self.resolve(node.func)) is self.resolve(node.func) else self.ref(fn, fn.__name__)
        keywords = {k.arg: k.value for k in node.keywords}
        if getattr(fn, "__name__", None) == _RETURN_SIGN and "return_sign" in keywords:
            sign = keywords.pop("return_sign")
            if not isinstance(sign, ast.Constant):
                raise self.ctx.error("logsumexp(..., return_sign=...) with a value known only when the code runs",
                                     node, "pass return_sign=True or False")
            if sign.value:
                from runtime.rules.scipy_special import logsumexp_with_sign
                func = self.ref(logsumexp_with_sign, "logsumexp_with_sign")
        vjp = next((v for v in rule.vjps if v is not None), None)
        if vjp is None or any(k is None for k in keywords) or any(isinstance(a, ast.Starred) for a in node.args):
            return ast.copy_location(ast.Call(func, node.args, [ast.keyword(k, v) for k, v in keywords.items()]), node)
        params = list(inspect.signature(vjp).parameters.values())[2:]
        args = list(node.args)
        last = max((i for i, p in enumerate(params) if p.name in keywords and rule.vjp(i) is not None), default=-1)
        for i in range(len(args), last + 1):
            p = params[i]
            if p.name in keywords:
                args.append(keywords.pop(p.name))
            elif p.default is not inspect.Parameter.empty and _literal(p.default):
                args.append(ast.Constant(p.default))
            else:
                break
        call = ast.Call(func, args, [ast.keyword(k, v) for k, v in keywords.items()])
        return ast.fix_missing_locations(ast.copy_location(call, node))

    def fft_call(self, node, fn):
        """``scipy.fft.f(x, ...)`` -> ``np.fft.f(x, ...)``."""
        name = getattr(fn, "__name__", "")
        target = getattr(np.fft, name, None)
        if target is None or not callable(target):
            return node
        try:
            bound = inspect.signature(fn).bind(*node.args, **{k.arg: k.value for k in node.keywords})
        except (TypeError, ValueError):
            return node
        arguments = dict(bound.arguments)
        if "plan" in arguments:
            raise self.ctx.error(f"scipy.fft.{name}(..., plan=...) is not supported", node, "drop the plan")
        for ignored in ("workers", "overwrite_x"):
            arguments.pop(ignored, None)
        takes = inspect.signature(target).parameters
        first, *rest = arguments.items()          # (scipy's x is numpy's a)
        if any(p not in takes for p, _ in rest):
            return node
        func = ast.Attribute(ast.Attribute(self.ref(np, "np"), "fft", ast.Load()), name, ast.Load())
        call = ast.Call(func, [first[1]], [ast.keyword(k, v) for k, v in rest])
        return ast.fix_missing_locations(ast.copy_location(call, node))


def _literal(value):
    return value is None or isinstance(value, (bool, int, float, str))


def _module_of(obj):
    module = getattr(obj, "__module__", None)
    return module if isinstance(module, str) else ""


def _mirrored(obj):
    """The scipy callable a ``runtime.scipy`` function stands for (``obj`` itself otherwise)."""
    module = _module_of(obj)
    if module.startswith("runtime.scipy."):
        sub = module.split(".")[2]
        scipy_module = sys.modules.get(f"scipy.{sub}")
        twin = getattr(scipy_module, getattr(obj, "__name__", ""), None) if scipy_module is not None else None
        if twin is not None:
            return twin
    return obj


def twin_of(fn):
    """A scipy.stats method reaching a call known only when the code runs (passed as an argument):
    ``(twin, None)``; a frozen distribution's method is refused there (its parameters would have to
    become the twin's, which only a call site the transpiler sees can do)."""
    if "scipy" not in sys.modules or not (hasattr(fn, "__adjoin_twin_call__") or (
            isinstance(fn, types.MethodType) and _module_of(fn.__func__).startswith("scipy.stats"))):
        return None
    from runtime.rules.scipy_stats import twin_call
    found = twin_call(fn)
    if found is None:
        return None
    twin, params = found
    if params:
        raise TypeError(f"{twin.__name__.replace('_', '.', 1)} of a frozen scipy.stats distribution passed to a "
                        f"differentiated function as an argument: pass the distribution's parameters instead "
                        f"({', '.join(params)}), or freeze it in the function or as a global")
    return twin, None


register_twins(twin_of)
