"""``lst.insert(i, v)``, ``lst.pop(i)`` and ``d.pop(k)`` as values, with their derivative rules.

Like ``append_at`` (runtime/rules/containers.py), each returns a new list or dict, so the old
version stays readable by the adjoint (structures.method_statement writes the calls).  The
front end passes the position the item lands at or leaves from (``insert_position_``,
``pop_position_``: plain ints, no derivative), so the rules need not read the list again;
``d.pop(k)`` is ``pop_key_`` (the front end tells dicts it built from lists).

Their derivatives are linear and built from the same two edits (a cotangent of a list is a
list, a dense array of rows or a sparse ``Grads``): the cotangent of ``insert_at_`` drops slot
``k``, that of ``pop_at_`` gets a zero slot back at ``k`` -- so derivatives of derivatives work.
"""

import numpy as np

from runtime.rules.containers import setitem, slot, zeros_tree
from runtime.rules.registry import define, nondifferentiable, primitive
from runtime.rules.support import Grads, _length, _slots

__all__ = ["insert_at_", "pop_at_", "pop_key_", "insert_position_", "pop_position_", "list_position_",
           "reversed_positions_", "sorted_positions_", "removed_position_", "emptied_"]


def insert_position_(lst, i):
    """Where ``lst.insert(i, v)`` puts ``v`` (negative counts from the end; clamped, as Python does)."""
    n = len(lst)
    i = int(i)
    return min(max(i + n if i < 0 else i, 0), n)


def pop_position_(c, i):
    """The position ``c.pop(i)`` removes from list ``c``, counted from the front."""
    if not isinstance(c, list):
        raise TypeError(f"adjoin took `.pop(i)` here for a list's, but it is called on a {type(c).__name__}; "
                        "for a dict, build it in the function from a literal so that adjoin knows it is one")
    if not len(c):
        raise IndexError("pop from empty list")
    return range(len(c))[i]


def list_position_(c, i):
    """The position ``c[i] = v`` writes, counted from the front when ``c`` is a list (``i``
    unchanged otherwise).  A write's derivative must name its slot by its position: ``l[-1]``
    of a list that grows later is another slot of the longer list's cotangent."""
    if isinstance(c, list) and isinstance(i, (int, np.integer)) and not isinstance(i, bool):
        if not -len(c) <= i < len(c):
            raise IndexError("list assignment index out of range")
        return int(i) % len(c)
    if isinstance(c, list) and isinstance(i, slice):
        raise TypeError("adjoin cannot differentiate an assignment to a slice of a list (it may change the "
                        "list's length); assign the items one by one: l[i] = v")
    return i


def _a_list(c, meth, instead):
    if not isinstance(c, list):
        raise TypeError(f"adjoin took `.{meth}()` here for a list's, but it is called on a {type(c).__name__}; "
                        f"{instead}")


def reversed_positions_(c):
    """The positions of list ``c`` in the order ``c.reverse()`` leaves them (the items are then read by
    position, so their derivatives are those of item reads)."""
    _a_list(c, "reverse", "for an array write `x = x[::-1]`")
    return list(range(len(c)))[::-1]


def sorted_positions_(c, keys, reverse=False):
    """The positions of list ``c`` in the order ``c.sort(key=..., reverse=...)`` leaves them (``keys``:
    the sort keys, one per item): the same stable sort, found on the values, no gradient through it."""
    _a_list(c, "sort", "for an array write `x = np.sort(x)`")
    return sorted(range(len(keys)), key=keys.__getitem__, reverse=bool(reverse))


def removed_position_(c, v):
    """The position ``c.remove(v)`` takes the item from (the first equal one), with Python's error."""
    _a_list(c, "remove", "build a new value instead")
    return c.index(v)


def emptied_(c):
    """``c`` after ``c.clear()``: a new empty list or dict (no gradient reaches the items it had)."""
    if not isinstance(c, (list, dict)):
        raise TypeError(f"adjoin took `.clear()` here for a list's or dict's, but it is called on a "
                        f"{type(c).__name__}")
    return type(c)()


nondifferentiable(insert_position_, pop_position_, list_position_, reversed_positions_, sorted_positions_,
                  removed_position_, emptied_)


def _shifted(g, k, by):
    """A Grads from cotangent ``g`` of a list with slots at or after ``k`` moved by ``by`` (slot ``k``
    itself dropped when ``by`` < 0)."""
    length = _length(g)
    out = Grads()
    for key, value in _slots(g):
        if isinstance(key, (int, np.integer)) and key < 0:
            if not length:
                raise ValueError("a negative slot in the derivative of a list of unknown length")
            key += length
        if by < 0 and key == k:
            continue
        out[key + by if key >= k and by > 0 or key > k and by < 0 else key] = value
    out.length = None if length is None else length + by
    return out


@primitive
def insert_at_(lst, k, v):
    """``lst.insert(k, v)`` as a new list (``0 <= k <= len(lst)``)."""
    if isinstance(lst, Grads) or not isinstance(lst, list):
        out = _shifted(lst, k, 1)
        if not (isinstance(v, (int, float)) and v == 0):
            out[k] = v
        return out
    out = list(lst)
    out.insert(k, v)
    return out


@primitive
def pop_at_(lst, k):
    """``lst`` without the item at position ``k``, as a new list."""
    if isinstance(lst, list):
        out = list(lst)
        del out[k]
        return out
    return _shifted(lst, k, -1)


@primitive
def pop_key_(d, k):
    """``d`` without key ``k``, as a new dict."""
    out = d.copy()
    if isinstance(out, Grads):
        out.pop(k, None)
    else:
        del out[k]
    return out


def insert_at_vjp_lst(g, ans, lst, k, v):
    return pop_at_(g, k)


def insert_at_vjp_v(g, ans, lst, k, v):
    return slot(g, k, v)


def insert_at_jvp_lst(t, ans, lst, k, v):
    return insert_at_(t, k, np.zeros_like(v))


def insert_at_jvp_v(t, ans, lst, k, v):
    return insert_at_(zeros_tree(lst), k, t)


def pop_at_vjp(g, ans, lst, k):
    return insert_at_(g, k, 0.0)


def pop_at_jvp(t, ans, lst, k):
    return pop_at_(t, k)


def pop_key_vjp(g, ans, d, k):
    return setitem(g, k, 0.0)


def pop_key_jvp(t, ans, d, k):
    return pop_key_(t, k)


define(insert_at_, vjp=(insert_at_vjp_lst, None, insert_at_vjp_v), jvp=(insert_at_jvp_lst, None, insert_at_jvp_v))
define(pop_at_, vjp=(pop_at_vjp, None), jvp=(pop_at_jvp, None))
insert_at_.linear_in = (0, 2)
define(pop_key_, vjp=(pop_key_vjp, None), jvp=(pop_key_jvp, None))
pop_at_.linear_in = pop_key_.linear_in = (0,)
