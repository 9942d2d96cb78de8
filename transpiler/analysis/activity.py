"""Pass 3: which values need adjoints, and what is known about shapes.

* **activity** -- a value is *active* when it depends on a ``wrt`` input through
  differentiable operations, and *useful* when it reaches the returned value.  Only values
  both active and useful get adjoint code; everything else is a constant to the adjoint.
* **scalars** -- values provably 0-d (number literals, ``math`` results, full reductions),
  which lets the reverse pass drop ``unbroadcast`` calls.

``describe`` is the single place that says what a core statement computes (primitive,
rule, operands); the reverse pass uses it too.
"""

import ast
import functools
import inspect
import math
import operator

import numpy as np

from runtime.rules import registry

from ..core import annotations as anno
from ..core.astutil import variable_names
from ..core.callables import user_function
from ..core.ir import push_parts, walk_assigns, walk_pushes

__all__ = ["Op", "describe", "analyze", "Analysis", "BINOPS", "UNARYOPS", "CMPOPS"]

BINOPS = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
    ast.Pow: operator.pow, ast.MatMult: operator.matmul, ast.BitAnd: operator.and_,
    ast.BitOr: operator.or_, ast.BitXor: operator.xor, ast.LShift: operator.lshift,
    ast.RShift: operator.rshift,
}
UNARYOPS = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Invert: operator.invert,
            ast.Not: operator.not_}
CMPOPS = {ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge,
          ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Is: operator.is_,
          ast.IsNot: operator.is_not, ast.In: operator.contains, ast.NotIn: operator.contains}
_NONDIFF_OPS = {operator.lt, operator.le, operator.gt, operator.ge, operator.eq, operator.ne,
                operator.is_, operator.is_not, operator.contains, operator.not_, operator.and_,
                operator.or_, operator.xor, operator.lshift, operator.rshift, operator.invert,
                operator.floordiv}
_NONDIFF_CALLS = {len, isinstance, type, id, int, bool, str, repr, range, print, hasattr,
                  np.shape, np.ndim, np.size, np.zeros, np.ones, np.empty, np.arange,
                  np.zeros_like, np.ones_like, np.empty_like, np.eye, np.floor,
                  np.ceil, np.round, np.argmax, np.argmin, np.argsort, np.isnan,
                  np.isfinite, np.result_type, np.dtype}
CONSTANT_ATTRS = {"shape", "ndim", "dtype", "size", "itemsize", "nbytes"}   # never differentiable
_REDUCTIONS = {np.sum, np.mean, np.max, np.min, np.prod, np.std, np.var}
for _name in ("amax", "amin"):
    if hasattr(np, _name):
        _REDUCTIONS.add(getattr(np, _name))


class Op:
    """What one core value computes.

    kind: 'const' | 'copy' | 'prim' (rule known) | 'nondiff' | 'unknown' | 'tuple'
          | 'call' (a user function or a callee known at run time: calls.py)
    args: positional operands (atoms; an index expression for getitem)
    """

    __slots__ = ("kind", "fn", "rule", "args", "kwargs", "node")

    def __init__(self, kind, node, fn=None, rule=None, args=(), kwargs=None):
        self.kind, self.node, self.fn, self.rule = kind, node, fn, rule
        self.args, self.kwargs = list(args), dict(kwargs or {})

    def operands(self):
        """Names read by the value, with their positional index (a keyword: its name)."""
        out = []
        for i, a in enumerate(self.args):
            out.extend((i, n) for n in _names(a))
        for key, a in self.kwargs.items():
            out.extend((key, n) for n in _names(a))
        return out

    def position(self, key):
        """The positional index of a primitive's keyword argument ``key``, read from the parameters
        of its rules (which mirror the primitive's), or None when no rule names it."""
        return keyword_position(self.rule, key) if self.rule is not None else None


@functools.lru_cache(maxsize=None)
def keyword_position(rule, key):
    """Where keyword ``key`` of ``rule``'s primitive sits among its positional parameters (its
    rules' parameters after ``g``/``t`` and ``ans``), or None."""
    for fn in tuple(rule.vjps) + tuple(rule.jvps):
        if callable(fn):
            try:
                params = list(inspect.signature(fn).parameters.values())[2:]
            except (TypeError, ValueError):
                continue
            for i, p in enumerate(params):
                if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                    return None
                if p.name == key:
                    return i
            return None
    return None


_names = variable_names      # (None, a constant or a call: no names)


def _all_names(node):
    return [n.id for n in ast.walk(node) if isinstance(n, ast.Name) and not anno.get(n, "static", False)]


def _primitive(kind, fn, node, args, kwargs=None):
    rule = registry.lookup(fn)
    if fn in _NONDIFF_OPS or (rule is not None and not rule.differentiable):
        return Op("nondiff", node, fn, rule, args, kwargs)
    if rule is None:
        if fn in _NONDIFF_CALLS:
            return Op("nondiff", node, fn, None, args, kwargs)
        if isinstance(node, ast.Call) and user_function(fn) is not None:
            return Op("call", node, fn, None, args, kwargs)     # differentiated by its own code
        return Op("unknown", node, fn, None, args, kwargs)
    return Op("prim", node, fn, rule, args, kwargs)


def describe(value):
    """The Op computed by a core value node."""
    if isinstance(value, ast.Constant) or anno.get(value, "static", False):
        return Op("const", value)
    if isinstance(value, ast.Name):
        return Op("copy", value, args=[value])
    if isinstance(value, ast.BinOp):
        return _primitive("prim", BINOPS[type(value.op)], value, [value.left, value.right])
    if isinstance(value, ast.UnaryOp):
        return _primitive("prim", UNARYOPS[type(value.op)], value, [value.operand])
    if isinstance(value, ast.Compare):
        return Op("nondiff", value, CMPOPS[type(value.ops[0])], None, [value.left, value.comparators[0]])
    if isinstance(value, ast.Call) and anno.get(value, "stack_pop"):
        return Op("pop", value, args=[ast.Name(anno.get(value, "stack_pop"), ast.Load())])   # see stacks.py
    if isinstance(value, ast.Call) and any(isinstance(a, ast.Starred) for a in value.args):
        # `rs.randn(*x.shape)`: the items of a starred value have no place among the rule's parameters;
        # a call that needs no derivative passes them as they are, any other is refused if they carry one
        fn = anno.get(value, "prim")
        args = [a.value if isinstance(a, ast.Starred) else a for a in value.args]
        rule = registry.lookup(fn) if fn is not None else None
        plain = fn in _NONDIFF_OPS or fn in _NONDIFF_CALLS or rule is not None and not rule.differentiable
        return Op("nondiff" if plain else "unknown", value, fn, rule, args, {k.arg: k.value for k in value.keywords})
    if isinstance(value, ast.Call):
        fn = anno.get(value, "prim")
        kwargs = {k.arg: k.value for k in value.keywords}
        if fn is None:
            base = value.func.value if isinstance(value.func, ast.Attribute) else value.func
            kind = "call" if anno.get(value, "method") or anno.get(value, "dynamic", False) else "unknown"
            return Op(kind, value, None, None, [base] + list(value.args), kwargs)
        return _primitive("prim", fn, value, value.args, kwargs)
    if isinstance(value, ast.Subscript):
        op = _primitive("prim", operator.getitem, value, [value.value, value.slice])
        return op
    if isinstance(value, ast.Attribute):
        if value.attr in CONSTANT_ATTRS or anno.get(value, "stack_method"):
            return Op("nondiff", value, None, None, [value.value])
        return Op("unknown", value, None, None, [value.value])
    if isinstance(value, (ast.Tuple, ast.List)):
        return Op("tuple", value, args=list(value.elts))
    if anno.get(value, "opaque", False):
        return Op("unknown", value, None, None, [ast.Name(n, ast.Load()) for n in _all_names(value)])
    return Op("unknown", value)


class Analysis:
    def __init__(self, active, useful, scalars, ops):
        self.active = active      # names depending on wrt inputs
        self.useful = useful      # names reaching the output
        self.scalars = scalars    # names known to be 0-d
        self.ops = ops            # id(Assign) -> Op

    def needs_adjoint(self, name):
        return name in self.active and name in self.useful


def _flows(op, index):
    """Does a gradient flow from the value into operand ``index`` (a position, or a keyword's name)?
    A keyword of a primitive flows where its rule gives that parameter a VJP, and also where no rule
    names it or gives it none: the modes then refuse it if it carries a gradient (never a silent zero)."""
    if op.kind in ("copy", "tuple", "unknown", "pop", "call"):
        return True
    if op.kind != "prim":
        return False
    if isinstance(index, str):
        return True
    return op.rule.vjp(index) is not None


def analyze(fn, wrt_names, outputs, scalar_params=(), elements=()):
    """Activity, usefulness and scalar knowledge for a core FunctionDef.

    Loops make these fixpoints: a value assigned late in a loop body reaches the body's
    start in the next iteration.  A name is scalar when every assignment to it is.
    """
    ops = {}
    assigns = list(walk_assigns(fn.body))
    for s in assigns:
        ops[id(s)] = describe(s.value)
    # the operands a gradient flows into, per assignment: both fixpoints below ask, every round
    flows = {key: [name for i, name in op.operands() if _flows(op, i)] for key, op in ops.items()}
    active = set(wrt_names)
    pushes = [push_parts(p) for p in walk_pushes(fn.body)]
    changed = True
    while changed:
        changed = False
        for stack, value in pushes:      # a stack holding an active value is active
            if stack not in active and any(n in active for n in _names(value)):
                active.add(stack)
                changed = True
        for s in assigns:
            target = s.targets[0].id
            if target in active:
                continue
            if any(name in active for name in flows[id(s)]):
                active.add(target)
                changed = True
    by_target = {}
    for s in assigns:
        by_target.setdefault(s.targets[0].id, []).append(ops[id(s)])
    scalar_params = set(scalar_params) | {
        a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs
        if isinstance(a.annotation, ast.Name) and a.annotation.id == "float"}   # x: float
    ints = range_targets(fn.body)
    scalar_params |= ints
    scalars = set(by_target) | scalar_params
    shapes = {t for t, target_ops in by_target.items()
              if all(isinstance(op.node, ast.Attribute) and op.node.attr == "shape" for op in target_ops)}
    elements = set(elements)
    changed = True
    while changed:
        changed = False
        for target, target_ops in by_target.items():
            if target in scalars and not all(_is_scalar(op, scalars, shapes) or is_element(op, elements, ints)
                                             for op in target_ops):
                scalars.discard(target)
                changed = True
    useful = set(outputs)
    size = -1
    while len(useful) != size:           # once more if a push makes a stack's values useful
        size = len(useful)
        _mark_useful(fn.body, useful, active, flows)
    return Analysis(active, useful, scalars, ops)


def range_targets(body):
    """Targets of ``for i in range(...)`` loops: Python ints, so 0-d."""
    out = set()
    for s in body:
        if isinstance(s, ast.For) and isinstance(s.target, ast.Name) \
                and anno.get(s.iter, "prim") is range:
            out.add(s.target.id)
        if isinstance(s, (ast.If, ast.For, ast.While)):
            out |= range_targets(s.body) | range_targets(s.orelse)
    return out


def _mark_useful(body, useful, active, flows):
    for s in reversed(body):
        if isinstance(s, ast.If):
            _mark_useful(s.body, useful, active, flows)
            _mark_useful(s.orelse, useful, active, flows)
        elif isinstance(s, (ast.For, ast.While)):
            while True:
                size = len(useful)
                _mark_useful(s.body, useful, active, flows)
                if len(useful) == size:
                    break
        elif push_parts(s) is not None:
            stack, value = push_parts(s)
            if stack in useful:
                useful.update(n for n in _names(value) if n in active)
        elif isinstance(s, ast.Assign):
            if s.targets[0].id in useful:
                for name in flows[id(s)]:
                    if name in active:
                        useful.add(name)


def is_element(op, elements, ints):
    """``x[i]`` of a 1-d array parameter ``x`` (in ``elements``) at an int: a 0-d scalar."""
    if op.fn is not operator.getitem or len(op.args) != 2:
        return False
    x, i = op.args
    return isinstance(x, ast.Name) and x.id in elements and (
        (isinstance(i, ast.Constant) and type(i.value) is int) or (isinstance(i, ast.Name) and i.id in ints))





def _is_scalar(op, scalars, shapes=frozenset()):
    """Is ``op``'s value provably 0-d?  ``shapes``: names bound only to some ``x.shape``, whose
    items are ints (``n = X.shape[0]``)."""
    def atom_scalar(a):
        if isinstance(a, ast.Constant):
            return isinstance(a.value, (int, float)) and not isinstance(a.value, bool)
        return isinstance(a, ast.Name) and a.id in scalars

    if op.fn in (float, int):      # float(v), int(v): a Python number whatever v was
        return True
    if isinstance(op.node, ast.Attribute) and op.node.attr == "ndim":
        return True
    if op.fn is operator.getitem and len(op.args) == 2:
        seq, index = op.args
        if isinstance(seq, ast.Attribute):              # X.shape[0] written in one
            shaped = seq.attr == "shape"
        else:
            shaped = isinstance(seq, ast.Name) and seq.id in shapes
        return shaped and (isinstance(index, ast.Constant) and type(index.value) is int
                           or isinstance(index, ast.Name) and index.id in scalars)
    if op.kind == "const":
        return atom_scalar(op.node)
    if op.kind == "copy":
        return atom_scalar(op.args[0])
    if op.kind in ("prim", "nondiff"):
        fn = op.fn
        if isinstance(op.node, (ast.BinOp, ast.UnaryOp)):
            return all(atom_scalar(a) for a in op.args)
        if getattr(fn, "__module__", None) == "math" or fn is len:
            return True
        if isinstance(fn, np.ufunc) and not op.kwargs and op.args and all(atom_scalar(a) for a in op.args):
            return True            # np.sin(x) of a 0-d x is 0-d (of a Python float: a numpy float)
        if fn is abs:
            return all(atom_scalar(a) for a in op.args)
        if fn in _REDUCTIONS and len(op.args) == 1 and op.kwargs.get("axis") is None \
                and not _truthy(op.kwargs.get("keepdims")):
            return "axis" not in op.kwargs or (isinstance(op.kwargs["axis"], ast.Constant)
                                               and op.kwargs["axis"].value is None)
    return False


def _truthy(node):
    return node is not None and not (isinstance(node, ast.Constant) and not node.value)
