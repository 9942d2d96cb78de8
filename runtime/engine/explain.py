"""Why is my gradient None?  Provenance recorded while explanations are on, and the diagnosis.

Off (the default), nothing here runs: :mod:`runtime.engine.tensor` checks one module global
(``tensor._EXPLAIN``) and finds it None.  On, it is this module, and every op remembers what
made its output: the op, its inputs, the user's ``file:line``, and whether it can carry a
gradient.  Values that leave the tape (``.numpy()``, ``float(t)``, ``np.asarray(t)``, a ``math``
call) are remembered too, so a tensor later built from such a value links back to them.

When ``tape.gradient`` (or ``jacobian``) returns None for a source, :func:`explain` walks that
record from the target back to the source and names the first place the chain broke.
"""

import collections
import itertools
import linecache
import os
import sys
import warnings
import weakref

import numpy as np

from . import tensor as _tensor
from .variable import Variable

__all__ = ["GradientExplanationWarning", "enable", "disable", "enabled", "explain"]


class GradientExplanationWarning(UserWarning):
    """Why ``tape.gradient`` returned None for a source (``tf.debugging.enable_gradient_explanations``)."""


_SKIP = (os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep,     # runtime/
         os.path.dirname(os.path.abspath(np.__file__)) + os.sep)
_seq = itertools.count(1)
_ops = {}                                  # id(tensor) -> _Node of the op that made it
_left = collections.deque(maxlen=256)     # recent values that left the tape, newest last
_left_by_value = {}                        # id(value) -> _Node (kind "left"); values kept alive


def enable():
    _tensor._EXPLAIN = sys.modules[__name__]


def disable():
    _tensor._EXPLAIN = None
    _ops.clear()
    _left.clear()
    _left_by_value.clear()


def enabled():
    return _tensor._EXPLAIN is not None


# --- recording --------------------------------------------------------------------------------

class _Node:
    """One step of provenance: how a tensor (or a value that left the tape) was made."""

    __slots__ = ("kind", "name", "rule", "parents", "where", "seq", "ref")

    def __init__(self, kind, name, parents, where, rule=None, out=None):
        self.kind = kind          # "op", "nograd", "int", "stop", "left", "created"
        self.name = name
        self.rule = rule
        self.parents = parents    # tuple of (weakref to a tensor or None, _Node or None, arg position)
        self.where = where        # (filename, lineno) in user code
        self.seq = next(_seq)
        self.ref = None
        if out is not None:
            key = id(out)
            self.ref = weakref.ref(out, lambda _r, key=key: _forget(key, _r))
            _ops[key] = self


def _forget(key, r):
    node = _ops.get(key)
    if node is not None and node.ref is r:
        del _ops[key]


def node_of(t):
    node = _ops.get(id(t))
    return node if node is not None and node.ref() is t else None


def user_frame():
    """The innermost frame outside the runtime and numpy: where the user's code is."""
    f = sys._getframe(1)
    while f is not None and f.f_code.co_filename.startswith(_SKIP):
        f = f.f_back
    return f


def _where():
    f = user_frame()
    return (f.f_code.co_filename, f.f_lineno) if f is not None else ("<unknown>", 0)


def _parents(args):
    out = []
    for pos, a in enumerate(args):
        items = a if type(a) in (list, tuple) else (a,)
        for x in items:
            if isinstance(x, _tensor._TensorBase):
                out.append((weakref.ref(x), node_of(x), pos))
            else:
                left = _left_by_value.get(id(x))
                if left is not None:
                    out.append((None, left, pos))
    return tuple(out)


def op(rule, args, out):
    """Called by ``tensor.apply`` for every op while explanations are on."""
    parents = _parents(args)
    if not parents:
        return
    dt = getattr(out._value, "dtype", None)
    if not rule.differentiable:
        kind = "nograd"
    elif dt is None or dt.kind not in "fc":
        kind = "int"
    else:
        kind = "op"
    _Node(kind, rule.name, parents, _where(), rule=rule, out=out)


def derived(kind, name, inputs, out):
    """An output made outside ``apply`` (``stop_gradient``, ``argmax``...)."""
    parents = _parents(inputs)
    if parents:
        _Node(kind, name, parents, _where(), out=out)
    return out


def created(out, value):
    """``tf.constant(value)``: links to the tensor ``value`` left from, if it did."""
    left = _left_by_value.get(id(value))
    _Node("created", "tf.constant", ((None, left, 0),) if left is not None else (), _where(), out=out)


def leave(t, value, how):
    """A tensor's value handed out as plain data by the user's code (not by the runtime)."""
    caller = sys._getframe(2)
    if caller.f_code.co_filename.startswith(_SKIP[0]):
        return
    node = _Node("left", how, ((weakref.ref(t), node_of(t), 0),), _where())
    if len(_left) == _left.maxlen:
        old_value, old_node = _left[0]
        if _left_by_value.get(id(old_value)) is old_node:
            del _left_by_value[id(old_value)]
    _left.append((value, node))
    if not isinstance(value, int):  # small ints are shared objects: identity would mislead
        _left_by_value[id(value)] = node


def tape_entered(tape):
    tape._explain_seq = next(_seq)


# --- diagnosis --------------------------------------------------------------------------------

def _path(target, source):
    """(nodes from the source's first consumer up to the target's op, the source's argument
    position in the first), or None if nothing recorded connects them."""
    start = node_of(target)
    if start is None:
        return None
    child = {id(start): None}   # node id -> the node it feeds on the way to the target
    stack = [start]
    while stack:
        node = stack.pop()
        for ref, parent, pos in node.parents:
            if ref is not None and ref() is source:
                path = [node]
                while child[id(path[-1])] is not None:
                    path.append(child[id(path[-1])])
                return path, pos
            if parent is not None and id(parent) not in child:
                child[id(parent)] = node
                stack.append(parent)
    return None


def _reaches(node, source):
    """Whether ``node`` was computed (at any depth) from ``source``."""
    seen = {id(node)}
    stack = [node]
    while stack:
        for ref, parent, _ in stack.pop().parents:
            if ref is not None and ref() is source:
                return True
            if parent is not None and id(parent) not in seen:
                seen.add(id(parent))
                stack.append(parent)
    return False


def _code(where):
    """The source line, without a trailing comment (a ``#`` after two spaces)."""
    return linecache.getline(where[0], where[1]).split("  #")[0].strip()


def _at(where):
    code = _code(where)
    return f"{where[0]}:{where[1]}" + (f" (`{code}`)" if code else "")


def _describe(source, frame):
    names = [k for k, v in frame.f_locals.items() if v is source] if frame is not None else []
    kind = "tf.Variable" if isinstance(source, Variable) else "tf.Tensor"
    label = f"`{names[0]}`" if names else "a source"
    name = f" '{source.name}'" if isinstance(source, Variable) else ""
    return (f"{label} ({kind}{name}, shape={source.shape}, dtype={getattr(source.dtype, 'name', source.dtype)})",
            names[0] if names else "x")


def _cause(source, targets, tape, tracked, call_where, var):
    """(cause text, (file, line)) for one source whose gradient is None."""
    found = None
    for t in targets:
        found = _path(t, source)
        if found:
            break
    use_where = found[0][0].where if found else call_where
    if source._value.dtype.kind not in "fc":
        used = f"it is used at {_at(use_where)}, but " if found else ""
        return (f"{used}it has dtype {getattr(source.dtype, 'name', source.dtype)}, and gradients flow only to "
                f"floating-point sources. Make it a float tensor (e.g. tf.cast({var}, tf.float32) before "
                f"tape.watch, or tf.constant(1.0) rather than tf.constant(1)).", use_where)
    if found:
        path, pos = found
        broken = _break_on(path, pos)
        if broken is not None:
            return broken
        if id(source) not in tracked and not _read_unrecorded(source, tape):
            return _not_watched(source, use_where, var, tape)
        return _unrecorded(path, tape, tracked)
    for t in targets:
        t_node = node_of(t)
        if t_node is None:
            continue
        for value, node in reversed(_left):
            if node.seq < t_node.seq and _reaches(node, source):
                return _left_text(node, maybe=True), node.where
    return (f"the target does not use it at all (checked at {_at(call_where)}): nothing "
            f"computed from it reaches the target.", call_where)


def _read_unrecorded(source, tape):
    """A trainable variable a watching tape never saw: it was only read while not recording."""
    return isinstance(source, Variable) and source.trainable and tape._watch_accessed


def _not_watched(source, use_where, var, tape):
    if isinstance(source, Variable) and not source.trainable:
        return (f"it is a tf.Variable with trainable=False, which a tape does not watch "
                f"automatically; it is used at {_at(use_where)}. Call tape.watch({var}) inside "
                f"the `with` block, or create it with trainable=True.", use_where)
    if isinstance(source, Variable):
        return (f"it was not watched: it is used at {_at(use_where)}, but the tape was made "
                f"with watch_accessed_variables=False. Call tape.watch({var}) inside the `with` "
                f"block.", use_where)
    return (f"it was not watched: it is used at {_at(use_where)}, but a tf.constant or plain "
            f"tensor is not watched automatically. Call tape.watch({var}) inside the `with` "
            f"block, or make it a tf.Variable.", use_where)


def _left_text(node, maybe=False):
    how = {"numpy": ".numpy()", "float": "float() (or a Python math function)",
           "int": "int()", "array": "np.asarray / np.array"}[node.name]
    text = (f"its value left the tape at {_at(node.where)}: {how} gives a plain Python/numpy "
            f"value that no tape can follow.")
    if maybe:
        text += " If the target is computed from that value,"
    else:
        text += " Instead,"
    return text + " keep the computation in tensors (tf.* ops such as tf.math.sin, tf.reduce_sum)."


def _break_on(path, pos):
    """The first link from the source up to the target that carries no gradient, or None."""
    for i, node in enumerate(path):
        if i:
            pos = next((p for _, parent, p in node.parents if parent is path[i - 1]), 0)
        if node.kind == "left":
            return _left_text(node), node.where
        if node.kind == "stop":
            return (f"tf.stop_gradient at {_at(node.where)} is on the path from it to the "
                    f"target: no gradient flows through it. Remove it if the gradient should "
                    f"flow.", node.where)
        if node.kind == "int":
            return (f"the op `{node.name}` at {_at(node.where)} is on the path: its result is "
                    f"an integer/bool tensor, and integer values carry no gradient. Keep "
                    f"floating-point values on the path.", node.where)
        if node.kind == "nograd":
            return (f"the op `{node.name}` at {_at(node.where)} is on the path and has no "
                    f"gradient (comparisons, rounding, argmax/argmin are constant almost "
                    f"everywhere). Use a differentiable surrogate if the gradient should flow "
                    f"through it.", node.where)
        if node.kind == "op" and node.rule is not None and node.rule.vjp(pos) is None:
            return (f"the op `{node.name}` at {_at(node.where)} has no gradient with respect "
                    f"to that argument.", node.where)
    return None


def _unrecorded(path, tape, tracked):
    """The first op on the path that this tape did not record: computed outside the block."""
    entered = getattr(tape, "_explain_seq", None)
    for node in path:
        out = node.ref() if node.ref is not None else None
        if out is None or id(out) not in tracked:
            if entered is not None and node.seq < entered:
                when = "before the tape's `with` block began"
            else:
                when = ("while the tape was not recording (under tape.stop_recording(), or "
                        "after the `with` block ended)")
            return (f"the target was computed from it {when}, at {_at(node.where)}. Compute "
                    f"it inside the `with` block, while the tape records.", node.where)
    last = path[-1]
    return f"the chain through {_at(last.where)} carries no gradient to it.", last.where


def explain(sources, targets, tape, tracked, what="gradient"):
    """Warn once for each source in ``sources`` (those whose result is None)."""
    frame = user_frame()
    call_where = (frame.f_code.co_filename, frame.f_lineno) if frame is not None else ("<unknown>", 0)
    for s in sources:
        label, var = _describe(s, frame)
        try:
            text, where = _cause(s, targets, tape, tracked, call_where, var)
        except Exception as e:  # a debugging aid must never break the gradient it explains
            text, where = (f"no explanation could be found ({type(e).__name__}: {e}), a bug "
                           f"in adjoin's explanations.", call_where)
        message = f"tape.{what} returned None for {label}: {text}"
        warnings.warn_explicit(message, GradientExplanationWarning, where[0], where[1])
