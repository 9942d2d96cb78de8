"""Which of the run-time checks effects.py emits a look at the whole core function makes
unnecessary, so ordinary code (``s += v`` on a float, ``lst[0] += 1.0`` on a list adjoin built,
``x[t] = x[t - 1] + v``) carries none.

A check stays wherever this cannot prove that no other name sees the object changed:

* ``x += v`` ("name"): unless every value ``x`` may hold was made here by arithmetic, a numpy
  function or a literal (never an argument, a call's result, an item or attribute).
* ``l[i] += v`` ("item"): unless ``l`` is a list or dict built here that nothing else holds or
  copies, whose items are fresh values stored only in it, and every item read from it is used
  only by arithmetic.
* a write into ``x`` after ``r = x[i]`` ("row"): unless no such ``r`` is read after the write
  (nor kept, passed on, or read again by a loop around the write).

Names are related by *families*: versions of one Python object (copies ``a = b`` and the
``setitem``/``append_at`` versions of a container).

``sequence_operators`` looks at the whole function for another reason: ``a + b`` and ``a * k``
concatenate and repeat when an operand is a list or tuple, ``l[i:j]`` of a list is a list, and
``a | b`` of dicts merges them; their derivatives are not the sum's, the product's, an array
slice's or nothing, so it writes them as ``concat``/``repeat``/``take``/``merge`` calls
(runtime/rules/containers.py).
"""

import ast
import builtins
import math

import numpy as np

from runtime.rules.containers import append_at, assign_slice_, concat, keys_of, merge, repeat, setitem, take

from ..core.astutil import variable_names as _names, walk
from ..core.callables import user_function
from ..core.ir import walk_assigns
from .effects import function_tree
from .container_edits import insert_at_, pop_at_, pop_key_
from .emitter import _COPIES, _VIEWS

__all__ = ["prune_checks", "sequence_operators"]

_PURE = {float, int, abs, pow, round, len, builtins.sum, isinstance, keys_of,    # results are new values
         builtins.dict, builtins.list, builtins.tuple}   # (shallow copies: new containers)
_READ_ONLY = {len, keys_of, isinstance}


def _is_check(call):
    return isinstance(call, ast.Call) and hasattr(getattr(call, "_prim", None), "kind")


def _pure(fn, call):
    """A call that makes a new value from its arguments (never one of them, nor a view)."""
    try:
        if fn in _PURE:
            return True
        if fn in _VIEWS or fn in _COPIES and any(k.arg == "copy" for k in call.keywords):
            return False
    except TypeError:
        return False
    module = getattr(fn, "__module__", None) or ""
    return isinstance(fn, np.ufunc) or module.startswith("numpy") or module == "math" or fn in vars(math).values()


class _Facts:
    """Definitions, uses (with their role) and positions of the names of one core function."""

    def __init__(self, core):
        self.defs, self.uses, self.parent = {}, {}, {}
        self.loops = []              # (first, last) position of each loop's body
        self.checks = []             # (position, statement, body list)
        self.pos = 0
        self.walk(core.body)

    # --- families ---------------------------------------------------------------------
    def find(self, n):
        while self.parent.get(n, n) != n:
            n = self.parent[n]
        return n

    def union(self, a, b):
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[ra] = rb

    def family(self, n):
        root = self.find(n)
        return {m for m in set(self.defs) | set(self.uses) if self.find(m) == root}

    # --- collecting --------------------------------------------------------------------
    def use(self, name, role, target=None):
        self.uses.setdefault(name, []).append((self.pos, role, target))

    def walk(self, body):
        for s in body:
            self.pos += 1
            if isinstance(s, ast.Assign):
                self.assign(s.targets[0].id, s.value)
            elif isinstance(s, ast.If):
                self.use_all(s.test, "read")
                self.walk(s.body)
                self.walk(s.orelse)
            elif isinstance(s, (ast.For, ast.While)):
                self.use_all(s.iter if isinstance(s, ast.For) else s.test, "read")
                first = self.pos
                self.walk(s.body)
                self.loops.append((first, self.pos))
            elif isinstance(s, ast.Expr) and _is_check(s.value):
                self.checks.append((self.pos, s, body))
                for a in s.value.args:
                    self.use_all(a, "check")
            elif isinstance(s, ast.Return):
                self.use_all(s.value, "return")
            else:
                self.use_all(s, "other")

    def use_all(self, node, role):
        for n in walk(node):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and not getattr(n, "_static", False):
                self.use(n.id, role)

    def assign(self, target, value):
        self.defs.setdefault(target, []).append((self.pos, value))
        if isinstance(value, ast.Name) and not getattr(value, "_static", False):
            self.use(value.id, "copy", target)
            self.union(target, value.id)
        elif isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name):
            self.use(value.value.id, "getitem", target)
            self.use_all(value.slice, "read")
        elif isinstance(value, (ast.BinOp, ast.UnaryOp, ast.Compare)):
            self.use_all(value, "arith")
        elif isinstance(value, (ast.List, ast.Tuple)):
            for n in _names(value):
                self.use(n, "stored", target)
        elif isinstance(value, ast.Call):
            fn = getattr(value, "_prim", None)
            if fn in (setitem, append_at) and isinstance(value.args[0], ast.Name):
                self.use(value.args[0].id, "container", target)
                self.union(target, value.args[0].id)
                self.use_all(value.args[1], "read")
                for n in _names(value.args[2]):
                    self.use(n, "stored", target)
            else:
                role = "read" if fn in _READ_ONLY else "arith" if fn is not None and _pure(fn, value) else "other"
                for a in list(value.args) + [k.value for k in value.keywords]:
                    self.use_all(a, role)
                if not isinstance(value.func, ast.Name):
                    self.use_all(value.func, "other")
        elif not isinstance(value, (ast.Constant, ast.Dict)):
            self.use_all(value, "other")

    # --- questions ---------------------------------------------------------------------
    def fresh(self, name):
        """Every value ``name`` holds was made here (arithmetic, a pure call, a literal)."""
        defs = self.defs.get(name)
        return bool(defs) and all(_fresh_value(v) for _, v in defs)

    def reads_of(self, family):
        """(name, definition) of each item read ``r = m[i]`` of a family member ``m``."""
        return [(target, value) for m in family for _, role, target in self.uses.get(m, ())
                if role == "getitem" for _, value in self.defs[target]]


def _fresh_value(value):
    if isinstance(value, (ast.BinOp, ast.UnaryOp, ast.Compare, ast.Constant, ast.List, ast.Tuple, ast.Dict)):
        return True
    fn = getattr(value, "_prim", None) if isinstance(value, ast.Call) else None
    return fn is not None and fn not in (setitem, append_at) and _pure(fn, value)


def _own_versions(facts, family):
    """Every member is made here as a container, or is another member's version or copy."""
    for m in family:
        defs = facts.defs.get(m)
        if not defs:
            return False            # an argument (no definition here)
        for _, v in defs:
            if not (isinstance(v, (ast.List, ast.Tuple, ast.Dict, ast.Name))
                    or isinstance(v, ast.Call) and getattr(v, "_prim", None) in (setitem, append_at)):
                return False
    return True


def _item_safe(facts, container, at, own):
    family = facts.family(container)
    if not _own_versions(facts, family):
        return False
    for m in family:
        for _, role, _ in facts.uses.get(m, ()):
            if role not in ("getitem", "container", "copy", "read", "check"):
                return False        # passed on, kept elsewhere, returned: its items may be seen there
    for m in family:                # every item stored into the family: fresh, and held only there
        for _, v in facts.defs[m]:
            stored = _names(v) if isinstance(v, (ast.List, ast.Tuple)) else \
                _names(v.args[2]) if isinstance(v, ast.Call) else []
            for n in stored:
                if not facts.fresh(n) or len(facts.uses.get(n, ())) != 1:
                    return False
    for r, value in facts.reads_of(family):   # an item read is only computed with, never kept
        if not isinstance(value.slice, (ast.Name, ast.Constant)):
            return False            # a slice of a list is a new list holding the same items
    return _reads_dead(facts, family, at, ("arith", "read", "check"), own)


def _reads_dead(facts, family, at, roles, own=None):
    """No item ``r = m[i]`` of the family read before position ``at`` is used after it (nor on a
    later trip of a loop around ``at``), and every use of one is in ``roles`` (``own``: the item
    the checked ``+=`` itself reads and combines)."""
    for r, _ in facts.reads_of(family):
        if r == own:
            continue
        for defined, _ in facts.defs[r]:
            for pos, role, _ in facts.uses.get(r, ()):
                if role not in roles:
                    return False    # kept or passed on: it may be read after the change
                if defined < at < pos:
                    return False    # read again after the change
                if any(first <= at <= last and not first <= defined <= last and first <= pos <= last
                       for first, last in facts.loops):
                    return False    # read again on the loop's next trip
    return True


def _name_safe(facts, name):
    for m in facts.family(name):
        defs = facts.defs.get(m)
        if not defs:
            return False            # an argument: the caller's object
        for _, v in defs:
            if not (_fresh_value(v) or isinstance(v, ast.Name) and not getattr(v, "_static", False)
                    or isinstance(v, ast.Call) and getattr(v, "_prim", None) in (setitem, append_at)):
                return False        # an item, attribute, global or a call's result: may be seen elsewhere
    return True


def _row_safe(facts, array, at):
    return _reads_dead(facts, facts.family(array), at, ("arith", "read", "check", "return"))


def _has_check(body):
    """Is there a check in ``body`` where _Facts.walk looks for them (branches and loops)?"""
    for s in body:
        if isinstance(s, ast.Expr) and _is_check(s.value):
            return True
        if isinstance(s, ast.If) and (_has_check(s.body) or _has_check(s.orelse)) \
                or isinstance(s, (ast.For, ast.While)) and _has_check(s.body):
            return True
    return False


def prune_checks(core):
    """Remove from ``core`` (in place) the run-time checks proved unnecessary."""
    if not _has_check(core.body):
        return core              # (most functions: no facts to gather)
    facts = _Facts(core)
    for at, stmt, body in facts.checks:
        kind, args = stmt.value._prim.kind, stmt.value.args
        names = [a.id if isinstance(a, ast.Name) else None for a in args]
        if None in names:
            continue
        if kind == "item":
            safe = _item_safe(facts, names[1], at, names[0])
        elif kind == "name":
            safe = _name_safe(facts, names[0])
        else:
            safe = _row_safe(facts, names[0], at + 1)
        if safe:
            body.remove(stmt)
    return core


# --- `+` and `*` on lists and tuples, `|` on dicts ---------------------------------------------
_MAKES_SEQUENCE = {append_at, insert_at_, pop_at_, repeat, take, keys_of, builtins.list, builtins.tuple,
                   builtins.sorted}        # (concat: when an operand is one, as for `+`)
_MAKES_DICT = {pop_key_, merge, builtins.dict}


_SEQUENCE_NODES = (ast.List, ast.Tuple, ast.ListComp, "list", "tuple", "sorted")
_DICT_NODES = (ast.Dict, ast.DictComp, "dict")
_RETURNS = {}


def _returns(fn, kinds):
    """May user function ``fn`` return a value of ``kinds`` (a literal, or a name bound to one,
    or to a call of a builtin named there)?  Its source is read once."""
    callee = user_function(fn) if fn is not None else None
    if callee is None or hasattr(callee[0], "__wrapped__"):
        return False            # (a wrapper, e.g. tf.custom_gradient: its source is not what it returns)
    key = (getattr(callee[0], "__code__", None), kinds)
    if key not in _RETURNS:
        tree = function_tree(callee[0])
        _RETURNS[key] = tree is not None and _tree_returns(tree, kinds)
    return _RETURNS[key]


def _returned_parameter(fn):
    """The position of the parameter user function ``fn`` returns on every path (``def ident(l):
    return l``: the caller's argument itself), or None."""
    callee = user_function(fn) if fn is not None else None
    if callee is None or hasattr(callee[0], "__wrapped__") or callee[1] is not None:
        return None
    key = (getattr(callee[0], "__code__", None), "parameter")
    if key not in _RETURNS:
        tree = function_tree(callee[0])
        _RETURNS[key] = None if tree is None else _parameter_returned(tree)
    return _RETURNS[key]


def _parameter_returned(tree):
    params = [a.arg for a in tree.args.posonlyargs + tree.args.args]
    returns = [n.value for n in ast.walk(tree) if isinstance(n, ast.Return)]
    names = {v.id for v in returns if isinstance(v, ast.Name)}
    if len(names) != 1 or not all(isinstance(v, ast.Name) for v in returns):
        return None
    name = names.pop()
    rebound = any(isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load) for n in ast.walk(tree))
    return params.index(name) if name in params and not rebound else None


def _tree_returns(tree, kinds):
    nodes = tuple(k for k in kinds if isinstance(k, type))

    def made(v):
        return isinstance(v, nodes) or isinstance(v, ast.Call) and isinstance(v.func, ast.Name) \
            and v.func.id in kinds

    bound = {t.id for n in walk(tree) if isinstance(n, ast.Assign) and made(n.value)
             for t in n.targets if isinstance(t, ast.Name)}
    return any(isinstance(n, ast.Return) and n.value is not None and
               (made(n.value) or isinstance(n.value, ast.Name) and n.value.id in bound) for n in walk(tree))


_ANY = object()          # a slot whose key is known only when the code runs


def _containers(assigns):
    """Names that hold a list or tuple on some path (made by a literal, a list method, ``list()``,
    ``tuple()``, a slice, ``+``/``*`` of one, an item of a container stored there as one, or a
    copy), and names that hold a dict: fixpoints over the loops."""
    seqs, dicts = set(), set()
    holds = {}              # container -> keys (or _ANY) at which it may hold a list or tuple

    def seq(node):
        return isinstance(node, (ast.List, ast.Tuple)) or isinstance(node, ast.Name) and node.id in seqs

    def is_dict(node):
        return isinstance(node, ast.Dict) or isinstance(node, ast.Name) and node.id in dicts

    def prim(value):
        fn = getattr(value, "_prim", None) if isinstance(value, ast.Call) else None
        try:
            hash(fn)
        except TypeError:       # an unhashable callable
            return None
        return fn

    def key(node):
        known = isinstance(node, ast.Constant) and not (isinstance(node.value, int) and node.value < 0)
        return node.value if known else _ANY

    def makes(value):
        fn = prim(value)
        if seq(value) or fn in _MAKES_SEQUENCE or fn in (setitem, assign_slice_) and seq(value.args[0]) \
                or fn is concat and any(seq(a) for a in value.args) or _returns(fn, _SEQUENCE_NODES):
            return True
        k = _returned_parameter(fn)
        if k is not None and k < len(value.args) and seq(value.args[k]):
            return True             # `m = ident(l)`: l itself
        if isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name):
            if isinstance(value.slice, ast.Slice):
                return seq(value.value)
            keys = holds.get(value.value.id, ())
            return _ANY in keys or key(value.slice) in keys or key(value.slice) is _ANY and bool(keys)
        if isinstance(value, ast.BinOp) and isinstance(value.op, (ast.Add, ast.Mult)):
            return seq(value.left) or seq(value.right)
        return False

    def makes_dict(value):
        fn = prim(value)
        return is_dict(value) or fn in _MAKES_DICT or fn is setitem and is_dict(value.args[0]) or \
            _returns(fn, _DICT_NODES) or \
            isinstance(value, ast.BinOp) and isinstance(value.op, ast.BitOr) and \
            (is_dict(value.left) or is_dict(value.right))

    def held(value):
        """The keys at which container ``value`` may hold a sequence."""
        if isinstance(value, (ast.List, ast.Tuple)):
            return {i for i, e in enumerate(value.elts) if seq(e)}
        if isinstance(value, ast.Name):
            return holds.get(value.id, set())
        fn = prim(value)
        if fn is setitem:
            return held(value.args[0]) | ({key(value.args[1])} if seq(value.args[2]) else set())
        if fn in (append_at, insert_at_) and (seq(value.args[2]) or held(value.args[0])):
            return {_ANY}       # positions move
        return set()

    changed = True
    while changed:
        changed = False
        for s in assigns:
            name = s.targets[0].id
            for kind, test in ((seqs, makes), (dicts, makes_dict)):
                if name not in kind and test(s.value):
                    kind.add(name)
                    changed = True
            keys = held(s.value)
            if not keys <= holds.get(name, set()):
                holds[name] = holds.get(name, set()) | keys
                changed = True
    return seqs, dicts


def _numeric(definitions, seqs):
    """Names every definition of which is arithmetic, a numpy call, a number or a copy of such a
    name (never a container; loop-carried copies included: a greatest fixpoint).
    ``definitions``: (name, value) of each assignment."""
    defs = {}
    for name, value in definitions:
        defs.setdefault(name, []).append(value)

    def number(v):
        if isinstance(v, ast.Constant):
            return isinstance(v.value, (int, float, complex))
        if isinstance(v, ast.Name):
            return v.id in out
        if isinstance(v, (ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp)):
            return True
        fn = getattr(v, "_prim", None) if isinstance(v, ast.Call) else None
        return isinstance(fn, np.ufunc) or (getattr(fn, "__module__", None) or "").startswith("numpy")

    out = set(defs) - seqs
    changed = True
    while changed:
        keep = {n for n in out if all(number(v) for v in defs[n])}
        changed, out = keep != out, keep
    return out


def _numeric_atom(node, numeric):
    return isinstance(node, ast.Constant) or isinstance(node, ast.Name) and node.id in numeric


def sequence_operators(core, ctx):
    """Write ``a + b`` and ``a * k`` whose operand may be a list or tuple as ``concat(a, b)`` and
    ``repeat(a, k)``, and ``a | b`` of dicts as ``merge(a, b)`` (in place): each operand's cotangent
    is the part of the result's slots that came from it.  On numbers and arrays ``concat`` adds,
    so a name that is a list on one path only costs nothing."""
    assigns = list(walk_assigns(core.body))
    seqs, dicts = _containers(assigns)

    def known(node, names, literal):
        return isinstance(node, literal) or isinstance(node, ast.Name) and node.id in names

    # what _numeric says of the values as they are before this loop rewrites some, found when
    # first asked for (most functions never ask)
    definitions, numbers = [(s.targets[0].id, s.value) for s in assigns], []

    def numeric():
        if not numbers:
            numbers.append(_numeric(definitions, seqs))
        return numbers[0]

    # parameters whose type the variant was not specialised on (analysis/signature.split_arrays)
    params = {a.arg for a in core.args.posonlyargs + core.args.args + core.args.kwonlyargs} \
        - set(getattr(ctx, "arrays", None) or ())

    def unknown(*nodes):
        ids = {getattr(n, "id", None) for n in nodes}
        return ids <= params and not ids & numeric()

    for s in assigns:
        v = s.value
        if isinstance(v, ast.Subscript) and isinstance(v.slice, ast.Slice) and known(v.value, seqs, ()):
            # `l[1:]` of a list: a list holding some of l's items, each cotangent back at its slot
            bounds = [b if b is not None else ast.Constant(None) for b in (v.slice.lower, v.slice.upper, v.slice.step)]
            s.value = _call(ctx, take, [v.value] + bounds, v)
            continue
        if not isinstance(v, ast.BinOp):
            continue
        seq_left, seq_right = known(v.left, seqs, (ast.List, ast.Tuple)), known(v.right, seqs, (ast.List, ast.Tuple))
        if isinstance(v.op, ast.Add) and isinstance(v.left, ast.Name) and isinstance(v.right, ast.Name) \
                and v.left.id == v.right.id and v.left.id not in numeric():
            seq_left = True         # `p + p` of an argument: the reverse sweep would take both for one array
        if isinstance(v.op, ast.Add) and unknown(v.left, v.right):
            seq_left = True         # `xs + ys` of arguments that may be lists: joined, or added (concat does both)
        if isinstance(v.op, ast.Add) and (seq_left or seq_right):
            fn, args = concat, [v.left, v.right]
        elif isinstance(v.op, ast.Mult) and (seq_left or seq_right):
            fn, args = repeat, [v.left, v.right] if seq_left else [v.right, v.left]
        elif isinstance(v.op, ast.BitOr) and (known(v.left, dicts, ast.Dict) or known(v.right, dicts, ast.Dict)
                                             or not (_numeric_atom(v.left, numeric()) or _numeric_atom(v.right, numeric()))):
            # (`p | q` of arguments may merge dicts: a bitwise or would pass no derivative at all)
            fn, args = merge, [v.left, v.right]
        else:
            continue
        s.value = _call(ctx, fn, args, v)
    return core


def _call(ctx, fn, args, loc):
    call = ast.copy_location(ast.Call(ctx.ref(fn, fn.__name__), args, []), loc)
    call._prim = fn
    return call
