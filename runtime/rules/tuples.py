"""The cotangent of a function's result that the caller reads item by item (``h, y = f(x)``).

Generated gradients call ``item_seed(t, (0, 1), (bh, by))`` when a called user function's result is only read as
``t[0]``, ``t[1]``...: a tuple result gets a tuple cotangent (zeros where nothing flowed back),
an array result the usual scatter of the items' cotangents.  Numpy only, so standalone
modules copy it.
"""

import numpy as np

from .support import Grads, scatter_add


def _zero(v):
    """A zero cotangent for an item: an empty Grads for a tuple (a callee's saved values)."""
    return Grads() if isinstance(v, (list, tuple, dict)) else np.zeros_like(v)


def item_seed(value, keys, items):
    """Cotangent of ``value`` from ``items`` (``items[j]`` is the cotangent of ``value[keys[j]]``)."""
    if isinstance(value, tuple):
        n = len(value)
        picked = {i % n: g for i, g in zip(keys, items)}
        return tuple(picked[i] if i in picked else _zero(v) for i, v in enumerate(value))
    out = None
    for i, g in zip(keys, items):
        term = scatter_add(g, value, i)
        out = term if out is None else out + term
    return np.zeros_like(value) if out is None else out
