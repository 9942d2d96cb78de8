"""Plain functions the rewritten code calls (desugar.py, calls/sites.py): orders found on values,
which no gradient passes through, ``raise`` as a call, and casts."""

import numpy as np

from runtime.rules.registry import define, nondifferentiable
from runtime.rules.shape import cast
from runtime.rules.support import dtype_of, is_floating

__all__ = ["order_", "order_positions_", "max_index_", "min_index_", "max_position_", "min_position_", "raise_", "unbound_local_", "items_", "astype_",
           "to_integer_", "item_", "in_place_"]


def order_(*keys, reverse=False):
    """The permutation ``sorted`` applies to items with these keys (stable, as ``sorted`` is)."""
    return order_positions_(keys, reverse)


def order_positions_(keys, reverse=False):
    """``order_`` of a list of keys (``sorted(lst, key=...)`` of a list held in a name)."""
    return sorted(range(len(keys)), key=keys.__getitem__, reverse=reverse)


def max_index_(*keys):
    """The index of the item ``max(items, key=...)`` returns: the first largest key."""
    return max_position_(keys)


def min_index_(*keys):
    """The index of the item ``min(items, key=...)`` returns: the first smallest key."""
    return min_position_(keys)



def raise_(exc):
    """``raise exc`` as a call, so a ``raise`` in a branch is ordinary primal code."""
    raise exc


def unbound_local_(name):
    """A read of local ``name`` before any value was bound to it: Python's own error."""
    raise UnboundLocalError(f"cannot access local variable '{name}' where it is not associated with a value")


def items_(it):
    """The items of a generator as a list (frontend/control/iterables.py): the list itself where its
    generated forward made one already, so the derivative passes through unchanged."""
    return it if isinstance(it, list) else list(it)


def items_vjp_(g, ans, it):
    return g


def items_jvp_(t, ans, it):
    return t


def max_position_(items):
    """The index of the item ``max(items)`` returns (the first largest), for a list."""
    return max(range(len(items)), key=items.__getitem__)


def min_position_(items):
    """The index of the item ``min(items)`` returns (the first smallest), for a list."""
    return min(range(len(items)), key=items.__getitem__)


def in_place_(value, *methods):
    """Does ``value op= v`` change ``value`` itself (an array, a list: it has ``__iadd__``, ...), rather
    than make a new value (a number, a tuple)?"""
    return all(hasattr(type(value), m) for m in methods)


def to_integer_(x, dtype):
    """``x.astype(int)`` (any integer or bool dtype): no gradient passes a cast to integers."""
    return x.astype(dtype)


def astype_(x, dtype):
    """``x.astype(dtype)`` with a dtype known only when the code runs (or numpy before 2.1,
    which has no ``np.astype``)."""
    return x.astype(dtype)


def astype_vjp_(g, ans, x, dtype):
    if is_floating(x) and is_floating(ans):
        return cast(g, dtype_of(x))
    return np.zeros(np.shape(x), dtype_of(x))     # a cast to integers passes no gradient


def astype_jvp_(t, ans, x, dtype):
    if is_floating(x) and is_floating(ans):
        return cast(t, dtype_of(ans))
    return np.zeros(np.shape(ans))


def item_(x):
    """``x.item()`` of a one-element array or numpy scalar: its value as a 0-d number (the
    shape the derivative rules need), with numpy's error for more elements."""
    if np.size(x) != 1:
        raise ValueError("can only convert an array of size 1 to a Python scalar")
    return np.reshape(x, ())[()]


def item_vjp_(g, ans, x):
    return np.reshape(g, np.shape(x))


def item_jvp_(t, ans, x):
    return np.reshape(t, ())


nondifferentiable(unbound_local_, in_place_, order_, order_positions_, max_index_, min_index_, to_integer_, max_position_, min_position_)
define(astype_, vjp=(astype_vjp_, None), jvp=(astype_jvp_, None))
define(item_, vjp=(item_vjp_,), jvp=(item_jvp_,))
define(items_, vjp=(items_vjp_,), jvp=(items_jvp_,))
