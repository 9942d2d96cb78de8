"""Which of the run-time checks effects/checks.py emits a look at the whole core function makes
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
"""

import ast
import builtins
import math

import numpy as np

from runtime.rules.containers import append_at, keys_of, setitem

from ...core import annotations as anno
from ...core.astutil import variable_names as _names, walk
from ..emitter import _COPIES, _VIEWS

__all__ = ["prune_checks"]

_PURE = {float, int, abs, pow, round, len, builtins.sum, isinstance, keys_of,    # results are new values
         builtins.dict, builtins.list, builtins.tuple}   # (shallow copies: new containers)
_READ_ONLY = {len, keys_of, isinstance}


def _is_check(call):
    return isinstance(call, ast.Call) and hasattr(anno.get(call, "prim"), "kind")


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
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and not anno.get(n, "static", False):
                self.use(n.id, role)

    def assign(self, target, value):
        self.defs.setdefault(target, []).append((self.pos, value))
        if isinstance(value, ast.Name) and not anno.get(value, "static", False):
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
            fn = anno.get(value, "prim")
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
    fn = anno.get(value, "prim") if isinstance(value, ast.Call) else None
    return fn is not None and fn not in (setitem, append_at) and _pure(fn, value)


def _own_versions(facts, family):
    """Every member is made here as a container, or is another member's version or copy."""
    for m in family:
        defs = facts.defs.get(m)
        if not defs:
            return False            # an argument (no definition here)
        for _, v in defs:
            if not (isinstance(v, (ast.List, ast.Tuple, ast.Dict, ast.Name))
                    or isinstance(v, ast.Call) and anno.get(v, "prim") in (setitem, append_at)):
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
            if not (_fresh_value(v) or isinstance(v, ast.Name) and not anno.get(v, "static", False)
                    or isinstance(v, ast.Call) and anno.get(v, "prim") in (setitem, append_at)):
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
        kind, args = anno.get(stmt.value, "prim").kind, stmt.value.args
        names = [a.id if isinstance(a, ast.Name) else None for a in args]
        if None in names:
            continue
        if kind == "alias":
            continue                 # `y += v` where another name holds y's object: only its type decides
        if kind == "item":
            safe = _item_safe(facts, names[1], at, names[0])
        elif kind == "name":
            safe = _name_safe(facts, names[0])
        else:
            safe = _row_safe(facts, names[0], at + 1)
        if safe:
            body.remove(stmt)
    return core
