"""Shapes known from the arguments' ndim: the exact code of a variant specialised on them.

The general variant calls ``unbroadcast(g, x)`` after every broadcasting operation, because
it cannot know whether ``x`` was broadcast.  A variant specialised on each array's ndim and on
which of its axes have length 1 (``analysis/signature.py``: ``"W1:2f"``, ``"b:2f~1n"``) can
usually prove it was not.  Every array parameter's axes get *symbols* (``W1`` of ndim 2 has
shape ``(a, b)``), or the literal 1, and the shape of each value the function computes follows
from numpy's rules:

* broadcasting: equal symbols stay, a literal 1 gives way to the other axis, a missing leading
  axis takes the other's.  Two symbols known not to be 1 must be the same length (numpy
  raises otherwise), so from that operation on they are one symbol (``_unify``); ``X @ W``
  unifies the contracted axes the same way.  A symbol that may be 1 meeting another gives a
  fresh symbol (unknown, but the same unknown wherever this value's shape is copied);
* ``np.sum``/``max``/``min``/``mean``/``prod`` with constant ``axis`` and ``keepdims``,
  elementwise ufuncs, ``np.where``, ``*_like``, ``tie_mask``, 1-d and 2-d ``@``, ``.T``,
  ``x.shape[i]`` and ``x.ndim`` (ints);
  whatever else (indexing, reshapes, calls of user functions) has an unknown shape.

Two shapes are provably equal when they are the same tuple of symbols and ones.  Then:

* ``unbroadcast(g, x)`` -> ``g`` when ``g`` has ``x``'s shape (and is real where ``x`` is real:
  ``unbroadcast`` also takes the real part of a complex ``g`` for a real ``x``), and
  ``np.sum(g, axis=...)`` when only leading axes or x's ones differ (``-np.sum(g, ...)`` for
  ``g = -h``: the same numbers, negating the smaller array);
* ``expand_reduced(g, x, ...)`` as an operand of an elementwise operation whose other operand
  has ``x``'s shape -> ``g``: the operation broadcasts it the same way;
* ``matmul_vjp_a(g, ans, a, b)`` / ``matmul_vjp_b`` for 2-d ``a`` and ``b`` -> ``g @ b.T`` /
  ``a.T @ g``: their result has ``a``'s (``b``'s) shape exactly.

Only straight-line statements at the top level of the function are read (a value assigned in a
loop or a branch, or by unpacking, has an unknown shape from there on), in order: a symbol is
unified only by an operation that has run before the statement the fact is used in.  The seed
of a 0-d output is taken to be a real 0-d value (``variants.call`` runs the general variant
for any other seed); any other seed's shape is unknown (a caller may pass any seed), and after
the first ``unbroadcast`` every adjoint's shape is its primal's.
"""

import ast

import numpy as np

from runtime.rules.arithmetic import matmul_vjp_a, matmul_vjp_b
from runtime.rules.reductions import tie_mask
from runtime.rules.support import expand_reduced, unbroadcast

from ..core import annotations as anno
from ..core.astutil import copy_ast

__all__ = ["specialise"]

_REDUCTIONS = {np.sum, np.max, np.amax, np.min, np.amin, np.mean, np.prod}
_LIKE = {np.ones_like, np.zeros_like}
_SCOPES = (ast.NamedExpr, ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


class _Symbol:
    """An axis length known only by identity (compared with ``is``, after ``_find``).

    ``sure``: known not to be 1 (a parameter's axis whose length was not 1 in the calls the
    variant is specialised on, or one found equal to such an axis).  ``same``: the symbol
    this one was found equal to (union-find: ``_find`` follows it)."""
    __slots__ = ("sure", "same")

    def __init__(self, sure=False):
        self.sure, self.same = sure, None


def _find(d):
    """The representative of axis length ``d`` (a symbol found equal to another is that one)."""
    while d.__class__ is _Symbol and d.same is not None:
        d = d.same
    return d


def _canon(shape):
    return None if shape is None else tuple([_find(d) for d in shape])


def _unify(x, y, checks):
    """Record that symbols ``x`` and ``y`` are the same length (numpy checked it), and that it
    was learnt (``checks``, a list: the statement checking it must stay, see ``specialise``)."""
    x, y = _find(x), _find(y)
    if x is not y and x.__class__ is _Symbol and y.__class__ is _Symbol:
        y.same = x
        x.sure = x.sure or y.sure
        checks.append((x, y))


def _broadcast(*shapes, checked=None):
    """The shape numpy's broadcasting gives ``shapes``.  ``checked``: a list when the operation
    surely runs and raises unless they broadcast (numpy 1.24's ``==`` of mismatched arrays
    returned False instead), which receives the lengths found equal."""
    if any(s is None for s in shapes):
        return None
    out = ()
    for s in shapes:
        n = max(len(out), len(s))
        a = (None,) * (n - len(out)) + out
        b = (None,) * (n - len(s)) + s
        out = tuple(_axis(x, y, checked) for x, y in zip(a, b))
    return out


def _axis(x, y, checked):
    """The length broadcasting gives two axes of lengths ``x`` and ``y`` (None: missing).

    numpy stretches a length 1 and otherwise requires equal lengths (or raises), so after a
    ``checked`` operation two lengths known not to be 1 are the same length from there on."""
    x, y = _find(x), _find(y)
    if x is None:
        return y
    if y is None or y == 1 or y is x:
        return x
    if x == 1:
        return y
    if checked is not None and x.__class__ is _Symbol and y.__class__ is _Symbol:
        if x.sure and y.sure:
            _unify(x, y, checked)
            return x
        if x.sure or y.sure:         # the other is 1 or the same length
            return x if x.sure else y
    return _Symbol()


def _const(node):
    """A literal's value (``-1`` included), or the AST node itself when it is not one."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) \
            and type(node.operand.value) is int:
        return -node.operand.value
    return node


def _reduced(shape, axis, keepdims):
    if shape is None or type(keepdims) is not bool:
        return None
    if axis is None:
        axes = set(range(len(shape)))
    else:
        items = axis.elts if isinstance(axis, ast.Tuple) else [axis]
        axes = set()
        for a in items:
            v = _const(a)
            if type(v) is not int or not -len(shape) <= v < len(shape):
                return None
            axes.add(v % len(shape))
    if keepdims:
        return tuple(1 if i in axes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in axes)


def _matmul(a, b, checked=None):
    if a is None or b is None or len(a) not in (1, 2) or len(b) not in (1, 2):
        return None
    if checked is not None:
        _unify(a[-1], b[0], checked)    # the contracted axes: numpy requires them equal (1 is not stretched)
    return a[:-1] + b[1:] if len(b) == 2 else a[:-1]


class _Shapes:
    """Walks the top-level statements in order, knowing ``(shape, real)`` of each name."""

    def __init__(self, ctx, arrays):
        self.resolve, self.ref = ctx.resolve, ctx.ref_attr
        self.pending = {}           # name -> its `expand_reduced(g, x, ...)`, while g and name stand
        self.env = {name: (tuple(1 if one else _Symbol(sure=True) for one in ones), real)
                    for name, (ndim, real, _, ones) in arrays.items()}
        self.rewritten = 0
        self.runs = True            # False inside an expression that may not be evaluated (`a if c else b`)
        self.checks = []            # lengths found equal by the statement being read
        self.shape_tuples = set()   # names bound to some `x.shape`
        self.memo = {}          # id(visited node) -> (node, (shape, real) or None)

    def statement(self, s):
        """Read top-level statement ``s``; one whose operations proved two lengths equal is
        annotated ``checks``: later code relies on it, so it must run (optimize's dead code
        elimination keeps it even when its value is not needed)."""
        del self.checks[:]
        self._statement(s)
        if self.checks:
            anno.put(s, "checks", True)

    def _statement(self, s):
        scoped = any(isinstance(n, _SCOPES) for n in ast.walk(s))   # names of its own: not read
        if not scoped and isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name):
            s.value, info = self.expr(s.value)
            name = s.targets[0].id
            self.stored(name)
            if info is not None:
                self.env[name] = info
            elif isinstance(s.value, ast.Attribute) and s.value.attr == "shape":
                self.shape_tuples.add(name)           # its items are ints: 0-d
            v = s.value
            if isinstance(v, ast.Call) and len(v.args) >= 2 \
                    and isinstance(v.args[0], (ast.Name, ast.Constant)) and self.resolve(v.func) is expand_reduced:
                self.pending[name] = v      # may be read as its `g` by the operations reading it
            return
        if not scoped and isinstance(s, (ast.Return, ast.Expr)) and s.value is not None:
            s.value, _ = self.expr(s.value)
            return
        for n in ast.walk(s):           # anything else: what it binds is unknown from here on
            if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
                self.stored(n.id)
            elif isinstance(n, ast.Attribute) and not isinstance(n.ctx, ast.Load) \
                    and isinstance(n.value, ast.Name):
                self.stored(n.value.id)          # `x.shape = ...` reshapes x in place

    def stored(self, name):
        """``name`` is bound again: its shape, and pending expansions of it or reading it, go."""
        self.env.pop(name, None)
        self.pending.pop(name, None)
        self.shape_tuples.discard(name)
        for k in [k for k, v in self.pending.items() if isinstance(v.args[0], ast.Name) and v.args[0].id == name]:
            del self.pending[k]

    def expr(self, node):
        """``(node or its replacement, (shape, real) or None)``; rewrites inside, bottom up."""
        visit = getattr(self, "_" + node.__class__.__name__, None)
        if visit is not None:
            node, info = visit(node)
            self.memo[id(node)] = (node, info)      # the node is kept: its id is not reused
            return node, info
        for name, v in ast.iter_fields(node):       # not modelled: its parts may still be
            if isinstance(v, list):
                v[:] = [self.expr(x)[0] if isinstance(x, ast.expr) else x for x in v]
            elif isinstance(v, ast.expr):
                setattr(node, name, self.expr(v)[0])
        return node, None

    def checked(self):
        """Where an operation that runs for sure records the lengths it proves equal."""
        return self.checks if self.runs else None

    def info(self, node):
        """The ``(shape, real)`` of an expression this pass has visited (None: unknown)."""
        return self.memo.get(id(node), (None, None))[1]

    def _Name(self, node):
        return node, self.env.get(node.id) if isinstance(node.ctx, ast.Load) else None

    def _Constant(self, node):
        t = type(node.value)
        return node, (((), t is not complex) if t in (int, float, complex, bool) else None)

    def _UnaryOp(self, node):
        node.operand, info = self.expr(node.operand)
        return node, info if isinstance(node.op, (ast.USub, ast.UAdd)) else None

    def _BinOp(self, node):
        node.left, a = self.expr(node.left)
        node.right, b = self.expr(node.right)
        if a is None or b is None:
            return node, None
        if isinstance(node.op, ast.MatMult):
            return node, (_matmul(a[0], b[0], self.checked()), a[1] and b[1])
        node.left, node.right = self._unexpanded_pair(node.left, a, node.right, b)
        return node, (_broadcast(a[0], b[0], checked=self.checked()), a[1] and b[1])

    def _Compare(self, node):
        node.left, a = self.expr(node.left)
        if len(node.comparators) != 1:
            node.comparators = [self.expr(c)[0] for c in node.comparators]
            return node, None
        node.comparators[0], b = self.expr(node.comparators[0])
        if a is None or b is None:
            return node, None
        node.left, node.comparators[0] = self._unexpanded_pair(node.left, a, node.comparators[0], b)
        return node, (_broadcast(a[0], b[0]), True)

    def _IfExp(self, node):
        node.test, _ = self.expr(node.test)
        runs, self.runs = self.runs, False       # one side runs: neither proves lengths equal
        try:
            node.body, a = self.expr(node.body)
            node.orelse, b = self.expr(node.orelse)
        finally:
            self.runs = runs
        return node, a if a is not None and b is not None and _canon(a[0]) == _canon(b[0]) and a[1] == b[1] else None

    def _Subscript(self, node):
        node.value, _ = self.expr(node.value)
        node.slice, _ = self.expr(node.slice)
        v = node.value
        if (isinstance(v, ast.Name) and v.id in self.shape_tuples) \
                or (isinstance(v, ast.Attribute) and v.attr == "shape"):
            return node, ((), True)                    # n = X.shape[0]: an int
        return node, None

    def _BoolOp(self, node):
        node.values[0], _ = self.expr(node.values[0])
        runs, self.runs = self.runs, False       # the later operands may not be evaluated
        try:
            node.values[1:] = [self.expr(v)[0] for v in node.values[1:]]
        finally:
            self.runs = runs
        return node, None

    def _Attribute(self, node):
        node.value, info = self.expr(node.value)
        if node.attr == "T" and info is not None and info[0] is not None and len(info[0]) <= 2:
            return node, (info[0][::-1], info[1])
        if node.attr == "ndim":
            return node, ((), True)
        return node, None

    def _Call(self, node):
        node.args = [self.expr(a)[0] for a in node.args]
        for k in node.keywords:
            k.value, _ = self.expr(k.value)
        infos = [self.info(a) for a in node.args]
        fn = self.resolve(node.func)
        try:
            hash(fn)
        except TypeError:
            return node, None
        kw = {k.arg: k.value for k in node.keywords}
        if None in kw or any(isinstance(a, ast.Starred) for a in node.args):
            return node, None
        if fn is unbroadcast and len(infos) == 2 and not kw:
            return self._unbroadcast(node, *infos)
        if fn is expand_reduced and len(infos) >= 2:     # x's shape, whatever g is (the seed)
            g, x = infos[:2]
            return node, (x[0], g is not None and g[1]) if x is not None else None
        if fn in (matmul_vjp_a, matmul_vjp_b) and len(infos) == 4 and not kw:
            return self._matmul_vjp(node, fn, infos)
        if None in infos:
            return node, None
        real = all(i[1] for i in infos)
        if isinstance(fn, np.ufunc) and len(infos) == fn.nin and fn.nout == 1 and not kw:
            return node, (_broadcast(*[i[0] for i in infos], checked=self.checked()), real)
        if fn in _REDUCTIONS and len(infos) in (1, 2) and set(kw) <= {"axis", "keepdims"}:
            axis = node.args[1] if len(infos) == 2 else kw.get("axis", ast.Constant(None))
            return node, (_reduced(infos[0][0], _const(axis), _const(kw.get("keepdims", ast.Constant(False)))),
                          real)
        if fn in _LIKE and len(infos) == 1 and not kw:
            return node, infos[0]
        if fn is tie_mask and len(infos) == 3 and not kw:      # a comparison, in like's dtype
            a, best = infos[0], infos[1]
            node.args[0], node.args[1] = self._unexpanded_pair(node.args[0], a, node.args[1], best)
            return node, (_broadcast(a[0], best[0], checked=self.checked()), infos[2][1])
        if fn is np.where and len(infos) == 3 and not kw:
            return node, (_broadcast(*[i[0] for i in infos], checked=self.checked()), infos[1][1] and infos[2][1])
        if getattr(fn, "__module__", None) == "math" and not kw:
            return node, ((), True)
        return node, None

    def _unbroadcast(self, node, g, x):
        info = (x[0], x[1] or (g is not None and g[1])) if x is not None else None
        if g is None or x is None or g[0] is None or x[0] is None or not (g[1] or not x[1]):
            return node, info
        gs, xs = _canon(g[0]), _canon(x[0])
        if gs == xs:
            self.rewritten += 1
            return node.args[0], g
        lead = len(gs) - len(xs)
        if lead < 0 or any(d is not e and e != 1 for d, e in zip(gs[lead:], xs)):
            return node, info
        ones = [lead + i for i, (d, e) in enumerate(zip(gs[lead:], xs)) if d is not e]   # x's axis is 1
        if lead and ones:
            return node, info
        axes = list(range(lead)) or ones        # the leading axes, or x's ones (kept)
        axis = ast.Constant(axes[0]) if len(axes) == 1 else ast.Tuple([ast.Constant(a) for a in axes], ast.Load())
        keywords = [ast.keyword("axis", axis)] + ([ast.keyword("keepdims", ast.Constant(True))] if ones else [])
        self.rewritten += 1
        g_node = node.args[0]
        negated = isinstance(g_node, ast.UnaryOp) and isinstance(g_node.op, ast.USub)
        total = ast.Call(self.ref(np, "np", "sum"), [g_node.operand if negated else g_node], keywords)
        if negated:          # -(sum) negates the reduced array only; the same numbers exactly
            total = ast.UnaryOp(ast.USub(), total)
        return ast.copy_location(total, node), info

    def _matmul_vjp(self, node, fn, infos):
        g, _, a, b = infos
        target = a if fn is matmul_vjp_a else b
        if None in (g, a, b) or target[0] is None:
            return node, None
        real = g[1] and a[1] and b[1]
        if g[0] is not None and len(g[0]) == 2 and len(a[0] or ()) == 2 and len(b[0] or ()) == 2 \
                and (real or not target[1]):
            ga, _, aa, ba = node.args
            self.rewritten += 1
            if fn is matmul_vjp_a:
                new = ast.BinOp(ga, ast.MatMult(), ast.Attribute(ba, "T", ast.Load()))
            else:
                new = ast.BinOp(ast.Attribute(aa, "T", ast.Load()), ast.MatMult(), ga)
            return ast.copy_location(new, node), (target[0], target[1] or real)
        return node, (target[0], target[1] or real)

    def _unexpanded_pair(self, left, a, right, b):
        """The two operands of one broadcasting operation (shapes ``a``, ``b``), at most one of
        them unexpanded: each is judged against the other's shape as written, and with both
        gone (``expand_reduced(g, t) + expand_reduced(g, t)``) nothing would broadcast g."""
        new = self._unexpanded(left, b)
        if new is not left:
            return new, right
        return left, self._unexpanded(right, a)

    def _unexpanded(self, operand, other):
        """``expand_reduced(g, x, ...)`` as an operand whose partner has x's shape: ``g``; so too
        a name bound to one (when every read of it goes, its assignment is dead code)."""
        call = operand
        if isinstance(operand, ast.Name) and operand.id in self.pending:
            call = self.pending[operand.id]
        elif not (isinstance(operand, ast.Call) and len(operand.args) >= 2
                  and self.resolve(operand.func) is expand_reduced):
            return operand
        g, x = self.info(call.args[0]), self.info(call.args[1])
        if g is None or x is None or other is None or x[0] is None or g[0] is None \
                or _canon(other[0]) != _canon(x[0]):
            return operand
        gs, xs = _canon(g[0]), _canon(x[0])
        if len(gs) > len(xs) or any(d != 1 and d is not e for d, e in zip(gs[::-1], xs[::-1])):
            return operand
        self.rewritten += 1
        if call is operand:
            return operand.args[0]
        return ast.copy_location(copy_ast(call.args[0]), operand)


def specialise(fn, ctx, arrays, before=(), scalar_seed=None):
    """Rewrite the top-level statements of FunctionDef ``fn`` (in place) with what the ndim of
    parameters ``arrays`` (``name -> (ndim, real, python_float, ones)``) proves; returns how many
    calls went.
    ``before``: statements that ran before ``fn``'s body (a split pair's backward reads the
    forward's values), read first for their shapes.  ``scalar_seed``: the seed parameter of a
    0-d output, taken to be a real 0-d value."""
    shapes = _Shapes(ctx, arrays)
    if scalar_seed is not None:        # a 0-d output's seed: real and 0-d (variants.py sees to it)
        shapes.env[scalar_seed] = ((), True)
    for s in list(before) + fn.body:
        shapes.statement(s)
    return shapes.rewritten
