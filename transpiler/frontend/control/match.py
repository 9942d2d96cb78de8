"""``match`` statements as ``if``/``elif`` chains (Python 3.10+), before normalizing.

The subject is evaluated once into a fresh name; each pattern becomes a condition built from
``==``, ``is``, ``isinstance``, ``len`` and ``in`` (short-circuiting in the order Python checks
them), and its captures become assignments at the start of the case body.  A guard reads the
captures as the expressions they stand for (subscripts/attributes of the subject).  Patterns
whose meaning this cannot reproduce exactly (``*rest`` and ``**rest`` captures, ``|`` with
captures) are refused at the user's line.
"""

import ast
import collections.abc
import copy

__all__ = ["lower_match"]

_SELF_MATCHING = (bool, bytearray, bytes, dict, float, frozenset, int, list, set, str, tuple)


def lower_match(s, ctx):
    """The statements that replace ``match`` statement ``s``."""
    subject = ctx.namer.claim("subject")
    out = [ast.copy_location(ast.Assign([ast.Name(subject, ast.Store())], s.subject), s)]
    chain = None
    for case in reversed(s.cases):
        binds = {}
        cond = _pattern(case.pattern, ast.Name(subject, ast.Load()), binds, ctx)
        if case.guard is not None:
            guard = _substitute(copy.deepcopy(case.guard), binds)
            cond = guard if cond is None else ast.BoolOp(ast.And(), [cond, guard])
        body = [ast.copy_location(ast.Assign([ast.Name(n, ast.Store())], copy.deepcopy(e)), case.pattern)
                for n, e in binds.items()] + list(case.body)
        if cond is None:
            chain = body                                  # irrefutable: the cases after it never run
            continue
        node = ast.copy_location(ast.If(cond, body, chain or []), case.pattern)
        chain = [node]
    out.extend(chain or [])
    return [ast.fix_missing_locations(x) for x in out]


def _ref(ctx, obj, name):
    node = ctx.ref(obj, name)
    ctx.parsed.scope.closure.setdefault(node.id, obj)
    return node


def _call(fn, *args):
    return ast.Call(fn, list(args), [])


def _and(parts):
    parts = [p for p in parts if p is not None]
    return None if not parts else parts[0] if len(parts) == 1 else ast.BoolOp(ast.And(), parts)


def _refuse(ctx, p, what):
    raise ctx.error(f"{what} in a `match` pattern is not supported", p,
                    "write that case with if/elif and explicit indexing")


def _pattern(p, subj, binds, ctx):
    """The condition for pattern ``p`` on expression ``subj`` (None: always), filling ``binds``."""
    if isinstance(p, ast.MatchAs):
        cond = None if p.pattern is None else _pattern(p.pattern, subj, binds, ctx)
        if p.name is not None:
            binds[p.name] = subj
        return cond
    if isinstance(p, ast.MatchValue):
        return ast.Compare(copy.deepcopy(subj), [ast.Eq()], [p.value])
    if isinstance(p, ast.MatchSingleton):
        return ast.Compare(copy.deepcopy(subj), [ast.Is()], [ast.Constant(p.value)])
    if isinstance(p, ast.MatchOr):
        conds = []
        for alt in p.patterns:
            inner = {}
            c = _pattern(alt, subj, inner, ctx)
            if inner:
                _refuse(ctx, p, "a capture inside `|`")
            if c is None:
                return None
            conds.append(c)
        return ast.BoolOp(ast.Or(), conds)
    if isinstance(p, ast.MatchSequence):
        return _sequence(p, subj, binds, ctx)
    if isinstance(p, ast.MatchMapping):
        if p.rest is not None:
            _refuse(ctx, p, "a `**rest` capture")
        parts = [_call(ast.Name("isinstance", ast.Load()), copy.deepcopy(subj),
                       _ref(ctx, collections.abc.Mapping, "Mapping"))]
        parts += [ast.Compare(k, [ast.In()], [copy.deepcopy(subj)]) for k in p.keys]
        parts += [_pattern(sub, ast.Subscript(copy.deepcopy(subj), copy.deepcopy(k), ast.Load()), binds, ctx)
                  for k, sub in zip(p.keys, p.patterns)]
        return _and(parts)
    if isinstance(p, ast.MatchClass):
        return _class(p, subj, binds, ctx)
    _refuse(ctx, p, type(p).__name__)


def _sequence(p, subj, binds, ctx):
    stars = [i for i, q in enumerate(p.patterns) if isinstance(q, ast.MatchStar)]
    if any(p.patterns[i].name is not None for i in stars):
        _refuse(ctx, p, "a `*rest` capture")
    n = len(p.patterns) - len(stars)
    seq = _ref(ctx, collections.abc.Sequence, "Sequence")
    text = ast.Tuple([ast.Name(t, ast.Load()) for t in ("str", "bytes", "bytearray")], ast.Load())
    length = _call(ast.Name("len", ast.Load()), copy.deepcopy(subj))
    parts = [_call(ast.Name("isinstance", ast.Load()), copy.deepcopy(subj), seq),
             ast.UnaryOp(ast.Not(), _call(ast.Name("isinstance", ast.Load()), copy.deepcopy(subj), text)),
             ast.Compare(length, [ast.GtE() if stars else ast.Eq()], [ast.Constant(n)])]
    for i, q in enumerate(p.patterns):
        if isinstance(q, ast.MatchStar):
            continue
        index = i if not stars or i < stars[0] else i - len(p.patterns)     # from the end after *_
        parts.append(_pattern(q, ast.Subscript(copy.deepcopy(subj), ast.Constant(index), ast.Load()), binds, ctx))
    return _and(parts)


def _class(p, subj, binds, ctx):
    try:
        cls = ctx.parsed.scope.evaluate(p.cls)
    except Exception:
        raise ctx.error(f"the class `{ast.unparse(p.cls)}` in this pattern is not a global name", p) from None
    parts = [_call(ast.Name("isinstance", ast.Load()), copy.deepcopy(subj), p.cls)]
    if cls in _SELF_MATCHING and len(p.patterns) == 1 and not p.kwd_attrs:
        return _and(parts + [_pattern(p.patterns[0], subj, binds, ctx)])
    attrs = list(getattr(cls, "__match_args__", ()))
    if len(p.patterns) > len(attrs):
        raise ctx.error(f"{ast.unparse(p.cls)}() accepts {len(attrs)} positional sub-patterns", p)
    for attr, sub in list(zip(attrs, p.patterns)) + list(zip(p.kwd_attrs, p.kwd_patterns)):
        parts.append(_pattern(sub, ast.Attribute(copy.deepcopy(subj), attr, ast.Load()), binds, ctx))
    return _and(parts)


def _substitute(node, binds):
    if isinstance(node, ast.Name) and node.id in binds:
        return copy.deepcopy(binds[node.id])
    for field, value in ast.iter_fields(node):
        if isinstance(value, ast.AST):
            setattr(node, field, _substitute(value, binds))
        elif isinstance(value, list):
            setattr(node, field, [_substitute(v, binds) if isinstance(v, ast.AST) else v for v in value])
    return node
