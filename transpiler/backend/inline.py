"""Fold each single-use temporary of a specialised variant back into its reader.

Normalisation names every intermediate value (``t1 = y + x`` / ``v2 = math.tanh(t1)``) and the
adjoint rules name theirs (``bt12 = bv10 * v8`` / ``bv9 = bv9 + bt12 * math.cos(v9)``).  On
Python floats each extra name costs a store, a load and a ``del`` (release.py) per value, as
much as the arithmetic itself: the 200-statement scalar gradient ran 12% faster with them
folded back into one expression (``v2 = math.tanh(y + x)``).  On arrays a named temporary
stays alive until the function returns and defeats numpy's reuse of a temporary's buffer
(``np.tanh(X @ W1 + b1)`` adds ``b1`` into the product in place; ``t1 = X @ W1`` /
``t2 = t1 + b1`` allocates twice and keeps both).

Exact: the folded expression is the same tree of the same operations on the same values, so
every float is bit for bit what it was.  Only evaluation moves, and only where nothing in
between could change what it reads:

* the temporary is assigned once and read once in the function, both in the same block (the
  top level, or one loop's or branch's body), and is not a parameter;
* its value, every statement it moves across and the statement that reads it are *plain*:
  names, constants, arithmetic, tuples, and calls of ``math`` functions of numbers, numpy
  ufuncs, reductions (``np.sum``, ``np.max``, ...), ``np.where``, ``np.ones_like``,
  ``np.zeros_like`` and ``tie_mask``, with no ``out`` argument --
  nothing that can mutate a value or advance an iterator (arithmetic on the user's own objects
  is taken to be free of effects, as dead-code elimination in optimize.py already takes it);
* none of the statements it moves across rebinds a name it reads (otherwise it is put back,
  unchanged, just before that statement);
* nothing is moved in a function with ``try`` handlers (``sugar.guard``), a nested scope or a
  call of ``locals``/``vars``/``eval``/``exec``.

An expression that raises (``math.log(0.0)``) still raises in the same call, at most after
other plain statements that would have run after it; which of two such errors comes first may
differ, and the float variant falls back to numpy on either (``modes/floats.py``).
"""

import ast
import inspect

import numpy as np

from runtime.rules.reductions import tie_mask
from .release import _INTROSPECT, _NESTED
from ..core.astutil import walk
from ..core.ir import COMMENT

__all__ = ["inline_temporaries"]


_ITERATING = {"fsum", "prod", "dist", "sumprod"}
"""``math`` functions that consume an iterable argument: moved, they could read an iterator
another call has consumed in between."""


_REDUCTIONS = {fn: list(inspect.signature(fn).parameters).index("out")
               for fn in (np.sum, np.mean, np.max, np.min, np.amax, np.amin, np.prod)}
"""numpy reductions taken as pure, each with the position of its ``out`` parameter (``np.sum``'s
fourth: ``np.sum(x, 0, None, buf)`` writes into ``buf``)."""


_PURE = {np.where, np.ones_like, np.zeros_like, tie_mask, tie_mask.raw}
"""Other numpy-level functions without an ``out`` parameter that only compute a new value."""


def _pure_function(fn, nargs, keywords):
    if getattr(fn, "__module__", None) == "math" and callable(fn):
        return not keywords and getattr(fn, "__name__", "") not in _ITERATING
    if isinstance(fn, np.ufunc):          # one more positional argument would be ``out``
        return not keywords and nargs == fn.nin
    try:
        if fn in _PURE:
            return True
        out = _REDUCTIONS.get(fn)
    except TypeError:                     # not hashable: not one of them
        return False
    return out is not None and nargs < out and "out" not in keywords


def _plain(node, resolve):
    """Is expression ``node`` built only of names, constants, arithmetic, tuples and calls of
    pure numeric functions (see the module docstring)?"""
    cls = node.__class__
    if cls is ast.Name or cls is ast.Constant:
        return True
    if cls is ast.BinOp:
        return _plain(node.left, resolve) and _plain(node.right, resolve)
    if cls is ast.UnaryOp:
        return _plain(node.operand, resolve)
    if cls is ast.Tuple:
        return all(_plain(e, resolve) for e in node.elts)
    if cls is ast.Call:
        if any(a.__class__ is ast.Starred for a in node.args) or any(k.arg is None for k in node.keywords):
            return False
        if not isinstance(node.func, (ast.Name, ast.Attribute)):
            return False
        fn = resolve(node.func)
        return fn is not None and _pure_function(fn, len(node.args), {k.arg for k in node.keywords}) \
            and all(_plain(a, resolve) for a in node.args) and all(_plain(k.value, resolve) for k in node.keywords)
    return False


def _plain_statement(s, resolve):
    """``name = plain`` or ``return plain``: the statements a temporary may move across or into."""
    if s.__class__ is ast.Assign:
        return len(s.targets) == 1 and s.targets[0].__class__ is ast.Name and _plain(s.value, resolve)
    if s.__class__ is ast.Return:
        return s.value is None or _plain(s.value, resolve)
    return False


def _is_comment(s):
    return s.__class__ is ast.Expr and s.value.__class__ is ast.Constant \
        and isinstance(s.value.value, str) and s.value.value.startswith(COMMENT)


def _substitute(node, pending):
    """``node`` with each read of a name in ``pending`` replaced by its expression (popped)."""
    cls = node.__class__
    if cls is ast.Name:
        return pending.pop(node.id)[0].value if node.id in pending else node
    if cls is ast.BinOp:
        node.left, node.right = _substitute(node.left, pending), _substitute(node.right, pending)
    elif cls is ast.UnaryOp:
        node.operand = _substitute(node.operand, pending)
    elif cls is ast.Tuple:
        node.elts = [_substitute(e, pending) for e in node.elts]
    elif cls is ast.Call:
        node.args = [_substitute(a, pending) for a in node.args]
        for k in node.keywords:
            k.value = _substitute(k.value, pending)
    return node


def inline_temporaries(fn, resolve):
    """Fold single-use temporaries of FunctionDef ``fn`` into their readers (in place); returns ``fn``."""
    loads, stores = {}, {}
    for n in (n for s in fn.body for n in walk(s)):
        cls = n.__class__
        if cls is ast.Name:
            counts = loads if n.ctx.__class__ is ast.Load else stores
            counts[n.id] = counts.get(n.id, 0) + 1
        elif isinstance(n, _NESTED) or (cls is ast.Call and n.func.__class__ is ast.Name
                                         and n.func.id in _INTROSPECT) or cls is ast.Try:
            return fn
    a = fn.args
    params = {p.arg for p in a.posonlyargs + a.args + a.kwonlyargs} | {p.arg for p in (a.vararg, a.kwarg) if p}
    fn.body = _fold_block(fn.body, loads, stores, params, resolve)
    return fn


def _fold_block(body, loads, stores, params, resolve):
    """``body`` with its single-use temporaries folded into their readers in the same block.

    A loop's or branch's body is a block of its own: a temporary moves only within one run of
    it, from its assignment to a later statement of the same block (a read earlier in a loop's
    body is of the previous iteration's value: the assignment is not pending there yet)."""
    pending = {}                 # temporary -> [its assignment, the names it reads, where it was], in order
    out = []

    def flush(names=None):
        """Put back (unchanged) the pending assignments reading ``names`` (None: all), each
        before the comments that came after it (a ``# grad of:`` line heads what follows)."""
        for t in [t for t, (_, reads, _) in pending.items() if names is None or reads & names]:
            s, _, at = pending.pop(t)
            i = len(out)
            while i > at and _is_comment(out[i - 1]):
                i -= 1
            out.insert(i, s)
            for later in pending.values():
                if later[2] >= i:
                    later[2] += 1

    for s in body:
        if _is_comment(s):
            out.append(s)
            continue
        if not _plain_statement(s, resolve):
            flush()                 # it may read or change anything
            if s.__class__ in (ast.For, ast.While, ast.If):
                s.body = _fold_block(s.body, loads, stores, params, resolve)
                s.orelse = _fold_block(s.orelse, loads, stores, params, resolve)
            out.append(s)
            continue
        if s.value is not None:
            s.value = _substitute(s.value, pending)
        if s.__class__ is ast.Assign:
            target = s.targets[0].id
            flush({target})         # a pending value reading the old `target` goes first
            if loads.get(target) == 1 and stores.get(target) == 1 and target not in params:
                pending[target] = [s, {n.id for n in walk(s.value) if n.__class__ is ast.Name}, len(out)]
                continue
        out.append(s)
    flush()
    return out
