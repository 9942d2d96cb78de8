"""``add_at(out, g, x, idx)``: ``out + scatter_add(g, x, idx)``, in place when nobody else can see it.

A loop that reads ``x[i]`` has, in its adjoint, one contribution per read:
``bx = bx + scatter_add(bt, x, i)`` builds a zero array the size of ``x`` and a new sum every
iteration, so a loop over ``x`` costs O(n) per iteration.  The transpiler writes
``bx = add_at(bx, bt, x, i)`` instead.  Its value is the same; it adds ``g`` into ``out`` itself
when that cannot be observed:

* ``out`` is a plain float array that owns its memory (not a view, not ``np.broadcast_to``'s
  read-only one), shaped like ``x``, with a dtype that adding ``g`` does not change; and
* nothing but the caller's variable refers to it: ``sys.getrefcount`` equals the count a
  private array has when passed the same way (measured once, through the same call, by
  ``_private_count``).  A seed the user passed, an array another adjoint shares or a stack
  holds, a runtime Tensor's value: each adds a reference, and gets the copying sum.

In place, each contribution costs O(1): the loop's adjoint stays linear in n.  It has the rules
of ``out + scatter_add(g, x, idx)``, so generated code that uses it can be differentiated again;
on runtime tensors it computes that sum with tensor operations (never in place), which record
themselves.  (It is a plain function, not a ``primitive``: the wrapper's check of every argument
would be most of its cost.)
"""

import sys

import numpy as np

from .forms import jvp_like
from .registry import define
from .containers import setitem, setitem_jvp_v, setitem_jvp_x, setitem_vjp_v, setitem_vjp_x
from .support import is_basic_index, scatter_add, slot_of, unbroadcast

__all__ = ["add_at", "set_at"]


def add_at(out, g, x, idx, _getrefcount=sys.getrefcount, _ndarray=np.ndarray):
    """``out + scatter_add(g, x, idx)``; adds into ``out`` when only the caller holds it."""
    if out.__class__ is _ndarray and out.base is None:
        refs = _getrefcount(out)
        if x is None:                            # _private_count's probe
            return refs
        if refs <= _private_count() and x.__class__ is _ndarray and out.shape == x.shape:
            gd = getattr(g, "dtype", None)
            # not an object array (the cotangent of a list, an item_array): `out[idx] += g` would
            # change the item array itself, which other cotangents may hold, or fail to cast
            if ((gd is None and g.__class__ in (float, int)) or gd == out.dtype) and out.dtype.kind != "O":
                try:
                    if idx.__class__ is int or is_basic_index(idx):
                        out[idx] += g
                    else:
                        np.add.at(out, idx, g)
                    return out
                except ValueError:               # read-only, or g does not fit out[idx]
                    pass
    return out + scatter_add(g, x, idx)


def _private_count():
    """How many references a private array has inside ``add_at`` (measured on first use)."""
    n = _private_count.__dict__.get("n")
    if n is None:
        probe = np.zeros(1)
        n = _private_count.n = add_at(probe, None, None, None)
    return n


def add_at_vjp_out(g, ans, out, gin, x, idx):
    return unbroadcast(g, out)


def add_at_vjp_g(g, ans, out, gin, x, idx):
    h = g[slot_of(x, idx)]          # (a container's slot may hold a 0-d zero: no unbroadcast)
    return np.real(h) if np.iscomplexobj(h) and not np.iscomplexobj(gin) else h


def add_at_jvp_g(t, ans, out, gin, x, idx):
    return scatter_add(t, x, idx)


define(add_at, vjp=(add_at_vjp_out, add_at_vjp_g, None, None), jvp=jvp_like(add_at_vjp_out) + (add_at_jvp_g,) + (None,) + (None,))


def set_at(x, idx, v, _getrefcount=sys.getrefcount, _ndarray=np.ndarray):
    """``setitem(x, idx, v)`` (``x`` with ``x[idx] = v``, as a value), written into ``x`` itself
    when only the caller's variable holds it (as for ``add_at``).

    Generated code calls it only as ``a = set_at(a, idx, v)``: the old value of ``a`` is then
    unreachable, so changing it in place cannot be observed.  A view another name holds (a
    slice read before the write) keeps a reference to the array, which then is copied."""
    if x.__class__ is _ndarray and x.base is None and _getrefcount(x) <= _private_count() \
            and x.dtype.kind in "fc" and (idx.__class__ is int or is_basic_index(idx)):
        try:
            x[idx] = v
            return x
        except (ValueError, TypeError):          # read-only, or v does not fit x[idx]
            pass
    return setitem(x, idx, v)


define(set_at, vjp=(setitem_vjp_x, None, setitem_vjp_v), jvp=(setitem_jvp_x, None, setitem_jvp_v))
set_at.linear_in = (0, 2)
add_at.linear_in = (0, 1)          # the tangent of add_at(out, g, x, i) is add_at(dout, dg, x, i): O(1) per read
