"""Rules for joining and splitting arrays: hstack, vstack, dstack, column_stack, and split,
array_split, hsplit, vsplit, dsplit.

The stacks are concatenations of their arrays after promoting each to 1, 2 or 3 dimensions;
the VJP cuts the cotangent back into one piece per array (a tuple, as for concatenate).  The
splits return a list of arrays; their cotangent arrives as a list (or item_array / sparse
Grads) with one entry per piece, and the VJP joins it back with ``np.concatenate``.
"""

import numpy as np

from .registry import define
from .support import items_like, shape_of, split_like


def promoted_shapes(arrays, promote):
    """Zero arrays shaped as ``promote`` (np.atleast_1d, ...) makes each array (shapes only)."""
    return [np.zeros(np.shape(promote(np.zeros(shape_of(a))))) for a in arrays]


def column_shape(a):
    """np.column_stack makes 1-d arrays columns (and scalars 1 x 1)."""
    s = shape_of(a)
    return np.zeros((1, 1) if len(s) == 0 else (s[0], 1) if len(s) == 1 else s)


def pieces_like(g, arrays, promoted, axis):
    return tuple(np.reshape(p, shape_of(a)) for p, a in zip(split_like(g, promoted, axis), arrays))


def hstack_axis(promoted):
    return 0 if np.ndim(promoted[0]) == 1 else 1


def hstack_vjp(g, ans, tup, dtype=None, casting="same_kind"):
    promoted = promoted_shapes(tup, np.atleast_1d)
    return pieces_like(g, tup, promoted, hstack_axis(promoted))


def hstack_jvp(t, ans, tup, dtype=None, casting="same_kind"):
    return np.hstack(t)


define(np.hstack, vjp=(hstack_vjp,), jvp=(hstack_jvp,))


def vstack_vjp(g, ans, tup, dtype=None, casting="same_kind"):
    return pieces_like(g, tup, promoted_shapes(tup, np.atleast_2d), 0)


def vstack_jvp(t, ans, tup, dtype=None, casting="same_kind"):
    return np.vstack(t)


define(np.vstack, vjp=(vstack_vjp,), jvp=(vstack_jvp,))
if hasattr(np, "row_stack"):        # vstack under its deprecated name (numpy 2.0 warns and calls vstack)
    define(np.row_stack, vjp=(vstack_vjp,), jvp=(vstack_jvp,))


def dstack_vjp(g, ans, tup):
    return pieces_like(g, tup, promoted_shapes(tup, np.atleast_3d), 2)


def dstack_jvp(t, ans, tup):
    return np.dstack(t)


define(np.dstack, vjp=(dstack_vjp,), jvp=(dstack_jvp,))


def column_stack_vjp(g, ans, tup):
    pieces = pieces_like(g, tup, [column_shape(a) for a in tup], 1)
    if isinstance(tup, (list, tuple)):
        return pieces
    return np.reshape(np.stack(pieces), shape_of(tup))     # one array: its rows were the pieces


def column_stack_jvp(t, ans, tup):
    return np.column_stack(t)


define(np.column_stack, vjp=(column_stack_vjp,), jvp=(column_stack_jvp,))


# --- splits: the VJP joins the pieces' cotangents --------------------------------------------------

def split_axis(ary, axis):
    """hsplit splits 1-d arrays along axis 0, others along axis 1."""
    return 0 if axis == 1 and np.ndim(ary) == 1 else axis


def join_pieces(g, ans, axis):
    return np.concatenate(items_like(g, ans), axis=axis)


def split_vjp(g, ans, ary, indices_or_sections, axis=0):
    return join_pieces(g, ans, axis)


def split_jvp(t, ans, ary, indices_or_sections, axis=0):
    return np.split(t, indices_or_sections, axis)


define(np.split, vjp=(split_vjp, None), jvp=(split_jvp, None))


def array_split_jvp(t, ans, ary, indices_or_sections, axis=0):
    return np.array_split(t, indices_or_sections, axis)


define(np.array_split, vjp=(split_vjp, None), jvp=(array_split_jvp, None))


def hsplit_vjp(g, ans, ary, indices_or_sections):
    return join_pieces(g, ans, split_axis(ary, 1))


def hsplit_jvp(t, ans, ary, indices_or_sections):
    return np.hsplit(t, indices_or_sections)


define(np.hsplit, vjp=(hsplit_vjp, None), jvp=(hsplit_jvp, None))


def vsplit_vjp(g, ans, ary, indices_or_sections):
    return join_pieces(g, ans, 0)


def vsplit_jvp(t, ans, ary, indices_or_sections):
    return np.vsplit(t, indices_or_sections)


define(np.vsplit, vjp=(vsplit_vjp, None), jvp=(vsplit_jvp, None))


def dsplit_vjp(g, ans, ary, indices_or_sections):
    return join_pieces(g, ans, 2)


def dsplit_jvp(t, ans, ary, indices_or_sections):
    return np.dsplit(t, indices_or_sections)


define(np.dsplit, vjp=(dsplit_vjp, None), jvp=(dsplit_jvp, None))
