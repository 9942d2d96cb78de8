"""Rewrites on the user's AST that turn pass-through blocks and comprehensions into core forms.

Run by ``normalize`` before its own work:

* ``with m as v: body`` -> ``mgr = m; v = mgr.__enter__(); body; mgr.__exit__(None, None, None)``:
  the context manager still wraps the primal computation (``np.errstate``, a timer); the
  adjoint runs after it, so it needs no handler.
* ``try: body except ...: ... else: e finally: f`` -> ``body; e; f``: a handler that does not
  fire changes nothing.  If the body raises inside the generated gradient, the exception
  propagates unchanged (a gradient through a handler cannot be computed).
* comprehensions and generator expressions -> a loop that appends (``[e for i in s]``),
  sets keys (``{k: v for ...}``) or adds (``sum(e for i in s)``), so the loop machinery
  differentiates them.  Comprehension variables get fresh names so they never leak.
"""

import ast
import copy

from ...core import annotations as anno
from ...core.astutil import walk

__all__ = ["desugar_blocks", "comprehension_loop", "guard"]


def _mk(node, like):
    return ast.fix_missing_locations(ast.copy_location(node, like))


def _name(id_, ctx=ast.Load):
    return ast.Name(id_, ctx())


def desugar_blocks(body, namer, handlers=None):
    """``body`` with every ``with`` and ``try`` statement replaced by straight code.

    The ``except`` handlers dropped are appended to ``handlers`` (see ``guard``)."""
    out = []
    for s in body:
        if isinstance(s, ast.With):
            out.extend(_with(s, namer, handlers))
        elif isinstance(s, ast.Try):
            if handlers is not None:
                watched = (s.body[0].lineno, max(getattr(b, "end_lineno", b.lineno) or b.lineno for b in s.body))
                handlers.extend((h, watched) for h in s.handlers)
            if s.handlers:
                _mark_guarded(s.body)
            out.extend(desugar_blocks(s.body + s.orelse + s.finalbody, namer, handlers))
        elif isinstance(s, (ast.If, ast.For, ast.While)):
            s = copy.copy(s)
            s.body = desugar_blocks(s.body, namer, handlers)
            s.orelse = desugar_blocks(s.orelse, namer, handlers)
            out.append(s)
        else:
            out.append(s)
    return out


def _mark_guarded(stmts):
    """Statements a handler watches: each is kept in generated code even when its value is unused
    (``z = {}["k"]`` raising KeyError decides which branch runs; see ``guard``)."""
    for st in stmts:
        for n in walk(st):
            if isinstance(n, ast.stmt):
                anno.put(n, "guarded", True)


def _with(s, namer, handlers):
    """Enter each manager in order, run the body, exit in reverse order."""
    head, exits = [], []
    for item in s.items:
        mgr = namer.claim("manager")
        head.append(_mk(ast.Assign([_name(mgr, ast.Store)], item.context_expr), item.context_expr))
        enter = _mk(ast.Call(ast.Attribute(_name(mgr), "__enter__", ast.Load()), [], []), item.context_expr)
        if item.optional_vars is not None:
            head.append(_mk(ast.Assign([item.optional_vars], enter), item.context_expr))
        else:
            head.append(_mk(ast.Expr(enter), item.context_expr))
        none = [ast.Constant(None)] * 3
        exits.insert(0, _mk(ast.Expr(ast.Call(ast.Attribute(_name(mgr), "__exit__", ast.Load()), none, [])), s))
    body = desugar_blocks(s.body, namer, handlers)
    if body and isinstance(body[-1], ast.Return) and body[-1].value is not None:
        # exit before returning: the value is computed inside the block
        result = namer.claim("result")
        ret = body[-1]
        body = body[:-1] + [_mk(ast.Assign([_name(result, ast.Store)], ret.value), ret)]
        return head + body + exits + [_mk(ast.Return(_name(result)), ret)]
    return head + body + exits


def _rename(node, names):
    for n in walk(node):
        if isinstance(n, ast.Name) and n.id in names:
            n.id = names[n.id]
    return node


def comprehension_loop(node, namer, result, kind):
    """Statements computing comprehension ``node`` into the variable ``result``.

    ``kind`` is "list", "dict" or "sum".  The first generator's iterable is evaluated in the
    enclosing scope (as Python does); every comprehension variable is renamed to a fresh name.
    """
    node = copy.deepcopy(node)
    first_iter = node.generators[0].iter
    fresh = {}
    for gen in node.generators:
        for n in walk(gen.target):
            if isinstance(n, ast.Name) and n.id not in fresh:
                fresh[n.id] = namer.claim(n.id)
    for gen in node.generators:
        _rename(gen.target, fresh)
        for cond in gen.ifs:
            _rename(cond, fresh)
        if gen.iter is not first_iter:
            _rename(gen.iter, fresh)
    if kind == "dict":
        key, value = _rename(node.key, fresh), _rename(node.value, fresh)
        target = ast.Subscript(_name(result), key, ast.Store())
        inner = _mk(ast.Assign([target], value), node)
        start = ast.Dict([], [])
    else:
        elt = _rename(node.elt, fresh)
        if kind == "list":
            call = ast.Call(ast.Attribute(_name(result), "append", ast.Load()), [elt], [])
            inner = _mk(ast.Expr(call), node)
            start = ast.List([], ast.Load())
        else:
            inner = _mk(ast.Assign([_name(result, ast.Store)], ast.BinOp(_name(result), ast.Add(), elt)), node)
            start = ast.Constant(0)
    body = [inner]
    for gen in reversed(node.generators):
        for cond in reversed(gen.ifs):
            body = [_mk(ast.If(cond, body, []), cond)]
        body = [_mk(ast.For(gen.target, gen.iter, body, [], None), node)]
    return [_mk(ast.Assign([_name(result, ast.Store)], start), node)] + body


def guard(function, ctx, raised_at=None):
    """``function`` (generated code), raising a TranspileError at the user's ``except`` line when an
    exception one of the dropped handlers would have caught escapes it: the handler would run
    here, and a gradient cannot be taken through it.  ``raised_at(exc)`` gives the user's
    ``(file, line)`` that raised: an exception raised by the function's own lines outside a
    ``try`` body is no handler's, and escapes as it is (from a callee's lines, it may be)."""
    import functools

    handlers = list(ctx.handlers)
    if not handlers:
        return function
    parsed = ctx.parsed
    own = (parsed.filename, parsed.node.lineno, getattr(parsed.node, "end_lineno", None) or 10**9)

    def outside(watched, exc):
        place = raised_at(exc) if raised_at is not None else None
        if place is None or place[0] != own[0] or not own[1] <= place[1] <= own[2]:
            return False          # cannot tell (or a callee's line): the handler may catch it
        return not watched[0] <= place[1] <= watched[1]

    def catches(handler, watched, exc):
        if outside(watched, exc):
            return False
        if handler.type is None:
            return True
        types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
        for t in types:
            try:
                cls = ctx.parsed.scope.evaluate(t)
            except Exception:
                return True          # cannot tell: assume it would have caught it
            if isinstance(exc, cls):
                return True
        return False

    @functools.wraps(function)
    def guarded(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except Exception as exc:
            for h, watched in handlers:
                if catches(h, watched, exc):
                    raise ctx.error(f"{type(exc).__name__}({exc}) was raised, so this `except` handler would "
                                    "run, and adjoin cannot differentiate through a handler that fires", h,
                                    "check for the failing case before calling the gradient, or compute "
                                    "without raising (np.where, np.errstate)") from exc
            raise
    return guarded
