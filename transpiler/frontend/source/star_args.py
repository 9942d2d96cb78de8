"""A callee with ``*args``/``**kwargs`` fixed to one call's shape, so they can carry gradients.

calls.py specialises a callee when a differentiable value lands in its ``*args`` or
``**kwargs``; ``parse_function`` then reads its source rewritten to that shape.
"""

import ast
import inspect
from ...core.once import once

__all__ = ["Specialised", "specialised"]


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
    """The one ``Specialised`` of ``fn`` for these star arguments, made by one thread: two threads
    each making one would leave a transformer whose function (held weakly) dies with the dropped one."""
    return once(_SPECIALISED, (fn, nvar, keys), lambda: Specialised(fn, nvar, keys))
