"""``+`` and ``*`` of lists and tuples, ``l[i:j]`` of a list, ``|`` of dicts: written as the container
primitives they are.

``sequence_operators`` looks at the whole function: ``a + b`` and ``a * k``
concatenate and repeat when an operand is a list or tuple, ``l[i:j]`` of a list is a list, and
``a | b`` of dicts merges them; their derivatives are not the sum's, the product's, an array
slice's or nothing, so it writes them as ``concat``/``repeat``/``take``/``merge`` calls
(runtime/rules/containers.py).
"""

import ast
import builtins

import numpy as np

from runtime.rules.containers import append_at, assign_slice_, concat, keys_of, merge, repeat, setitem, take

from ...core import annotations as anno
from ...core.astutil import walk
from ...core.callables import user_function
from ...core.ir import walk_assigns
from ..effects.checks import function_tree
from .edits import insert_at_, pop_at_, pop_key_

__all__ = ["sequence_operators"]


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
        fn = anno.get(value, "prim") if isinstance(value, ast.Call) else None
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
        fn = anno.get(v, "prim") if isinstance(v, ast.Call) else None
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
        - set(ctx.arrays or ())

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
    anno.put(call, "prim", fn)
    return call
