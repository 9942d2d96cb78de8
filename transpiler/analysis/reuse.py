"""Reuse of primal values in the adjoint: ``np.cos(x)`` in a rule becomes ``t2`` when the primal
already computed ``t2 = np.cos(x)`` from the same ``x``.

A rule such as ``sin_vjp(g, ans, x) = g * np.cos(x)`` recomputes what the user's code may
have computed next to it (``np.sin(x) * np.cos(x)``).  Reading the primal's value instead
saves the call, and in a loop it saves memory too: the loop then pushes ``t2`` (which it
would push anyway when another rule reads it) instead of ``x``.

The substitution is exact when, between the primal definition ``t = f(a, b)`` and the
statement whose adjoint reads ``f(a, b)``, nothing rebinds ``t``, ``a`` or ``b``: core code
is in SSA form inside a block, so both then see the same values.  Only definitions in the
same block are used (a loop body's adjoint pops the values of its own iteration), only
pure functions (numpy ufuncs and ``math``), and only when ``t`` is assigned nowhere else
in the block, so the adjoint reads it back as the value the definition gave it.
"""

import ast

import numpy as np

from ..core import annotations as anno
from ..core.astutil import copy_ast, walk

__all__ = ["Available"]


_ATOMS = (ast.Name, ast.Constant)


def _flat(value):
    """Is ``value`` one operation on names and constants (a core statement's value), so that
    it binds no name (only a walrus or a comprehension inside a value would)?"""
    cls = value.__class__
    if cls is ast.BinOp:
        return value.left.__class__ in _ATOMS and value.right.__class__ in _ATOMS
    if cls is ast.Call:
        f = value.func
        return (f.__class__ is ast.Name or (f.__class__ is ast.Attribute and f.value.__class__ is ast.Name)) \
            and all(a.__class__ in _ATOMS for a in value.args) \
            and all(k.value.__class__ in _ATOMS for k in value.keywords)
    if cls is ast.UnaryOp:
        return value.operand.__class__ in _ATOMS
    return cls in _ATOMS


def _assigned(stmt):
    """Names a statement binds, nested blocks included."""
    if stmt.__class__ is ast.Assign and len(stmt.targets) == 1 and stmt.targets[0].__class__ is ast.Name \
            and _flat(stmt.value):
        return {stmt.targets[0].id}          # the common case, without a walk
    out = set()
    for n in walk(stmt):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            out.add(n.id)
        elif isinstance(n, (ast.For,)) and isinstance(n.target, ast.Name):
            out.add(n.target.id)
    return out


def _pure(fn):
    return isinstance(fn, np.ufunc) or (callable(fn) and getattr(fn, "__module__", None) == "math")


def _atom_key(a):
    """What ``ast.dump`` tells of a name or a constant argument, without printing it."""
    if a.__class__ is ast.Name:
        return ("Name", a.id, getattr(a, "ctx", None).__class__)
    if a.__class__ is ast.Constant:
        return ("Constant", repr(a.value), getattr(a, "kind", None))
    return ast.dump(a)


def _key(fn, args):
    try:
        hash(fn)
    except TypeError:
        return None
    return (fn, tuple(_atom_key(a) for a in args))


class Available:
    """The pure calls of one block, by function and arguments, for the adjoints of its statements."""

    def __init__(self, body):
        self.body = body
        self.stores = [_assigned(s) for s in body]
        count = {}
        for names in self.stores:
            for n in names:
                count[n] = count.get(n, 0) + 1
        self.defs = {}
        for i, s in enumerate(body):
            if not (isinstance(s, ast.Assign) and isinstance(s.targets[0], ast.Name)
                    and isinstance(s.value, ast.Call) and not s.value.keywords):
                continue
            fn = anno.get(s.value, "prim")
            target = s.targets[0].id
            if fn is None or not _pure(fn) or count.get(target) != 1 \
                    or not all(isinstance(a, (ast.Name, ast.Constant)) for a in s.value.args):
                continue
            key = _key(fn, s.value.args)
            if key is not None:
                self.defs.setdefault(key, []).append((i, target, {a.id for a in s.value.args
                                                                  if isinstance(a, ast.Name)}))

    def lookup(self, fn, args, at):
        """The name holding ``fn(*args)`` for the adjoint of statement ``at``, or None."""
        key = _key(fn, args)
        for i, target, reads in self.defs.get(key, ()):
            if i < at:       # defined before: nothing up to and including the statement rebinds
                between = set().union(*self.stores[i + 1:at + 1])
            else:            # defined after (from the statement's own result, say): nothing between
                between = set().union(*self.stores[at + 1:i]) if i > at + 1 else set()
            if target not in between and not (reads & between) and not (reads & self.stores[i]):
                return target
        return None

    def substitute(self, node, at, resolve):
        """``node`` with every pure call that the block already computed replaced by its name."""
        if not self.defs:
            return node
        return _Sub(self, at, resolve).visit(node)


class _Sub:
    """The rewrite of ``substitute``: children first, then the call itself (what an
    ``ast.NodeTransformer`` with only ``visit_Call`` does, without its generic dispatch: it
    runs on every rule expression the reverse pass inlines)."""

    def __init__(self, available, at, resolve):
        self.available, self.at, self.resolve = available, at, resolve

    def visit(self, node, _AST=ast.AST, _list=list, _Call=ast.Call):
        for name in node._fields:
            v = getattr(node, name, None)
            if v.__class__ is _list:
                for i, x in enumerate(v):
                    if isinstance(x, _AST) and x._fields:
                        new = self.visit(x)
                        if new is not x:
                            v[i] = new
            elif isinstance(v, _AST) and v._fields:
                new = self.visit(v)
                if new is not v:
                    setattr(node, name, new)
        return self.visit_Call(node) if node.__class__ is _Call else node

    def visit_Call(self, call):
        if call.keywords or not all(isinstance(a, (ast.Name, ast.Constant)) for a in call.args):
            return call
        fn = self.resolve(call.func)
        if fn is None or not _pure(fn):
            return call
        name = self.available.lookup(fn, call.args, self.at)
        return call if name is None else ast.copy_location(ast.Name(name, ast.Load()), call)


_CHEAP = (ast.Add, ast.Sub, ast.Mult)


def recomputable(primal, needed, scalars):
    """Which of the values a loop body saves (``needed``) its adjoint can recompute instead:
    ``t5 = t3 * t2`` of two 0-d values that are saved anyway costs one float operation in the
    adjoint, where saving it costs a push, a pop and 32 bytes per iteration.  Returns
    ``(saved, recompute)``: names still saved, and the definitions to repeat (in body order)
    after the pops.  Only top-level ``a + b``, ``a - b``, ``a * b`` and ``-a`` of 0-d names
    (``scalars``) and number literals, each defined once in the body."""
    count, where = {}, {}
    for k, s in enumerate(primal):
        for n in walk(s):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                count[n.id] = count.get(n.id, 0) + 1
                if not anno.get(s, "backedge", False):
                    where[n.id] = k       # (a back edge rebinds after the pushes: not a change)
    saved = set(needed)
    recompute = []
    for k, s in enumerate(primal):
        if not (isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)):
            continue
        t, v = s.targets[0].id, s.value
        if t not in saved or t not in scalars or count.get(t) != 1:
            continue
        if isinstance(v, ast.BinOp) and isinstance(v.op, _CHEAP):
            operands = [v.left, v.right]
        elif isinstance(v, ast.UnaryOp) and isinstance(v.op, ast.USub):
            operands = [v.operand]
        else:
            continue
        if all((isinstance(o, ast.Name) and o.id in saved and o.id != t and o.id in scalars
                and count.get(o.id, 0) <= 1 and where.get(o.id, -1) < k)
               or (isinstance(o, ast.Constant) and type(o.value) in (int, float)) for o in operands):
            saved.discard(t)
            recompute.append(ast.Assign([ast.Name(t, ast.Store())], copy_ast(v)))
    return sorted(saved), recompute
