"""Plain functions the rewritten code calls (everyday.py): orders found on values, which no
gradient passes through, and ``raise`` as a call."""

from runtime.rules.registry import nondifferentiable

__all__ = ["order_", "max_index_", "min_index_", "raise_"]


def order_(*keys, reverse=False):
    """The permutation ``sorted`` applies to items with these keys (stable, as ``sorted`` is)."""
    return sorted(range(len(keys)), key=keys.__getitem__, reverse=reverse)


def max_index_(*keys):
    """The index of the item ``max(items, key=...)`` returns: the first largest key."""
    return max(range(len(keys)), key=keys.__getitem__)


def min_index_(*keys):
    """The index of the item ``min(items, key=...)`` returns: the first smallest key."""
    return min(range(len(keys)), key=keys.__getitem__)



def raise_(exc):
    """``raise exc`` as a call, so a ``raise`` in a branch is ordinary primal code."""
    raise exc


nondifferentiable(order_, max_index_, min_index_)
