"""Derivative rules for what generated gradients call, so generated code is differentiable again.

A generated adjoint calls a few numpy-level helpers (``unbroadcast``, ``expand_reduced``,
``split_like``...) and, for rules with shape-dependent control flow, the VJP rule itself by
name (``matmul_vjp_a(bout, t1, x, w)``).  Transforming that code again -- ``grad(grad(f))``,
forward-over-reverse ``hvp`` -- needs rules for those calls.  All of them are linear in the
cotangent they move, so their derivatives are each other:

* ``unbroadcast`` (sum to x's shape) and ``broadcast_like`` (broadcast to ans's shape) are
  each other's adjoint; ``expand_reduced`` and ``sum_like`` likewise;
* a bilinear primitive P(a, b) (matmul, dot) has ``vjp_a(g; b)`` bilinear in (g, b), so
  ``d vjp_a / d g`` is ``vjp_a`` itself (forward) or ``jvp_a`` (its transpose), and
  ``d vjp_a / d b`` is ``vjp_b`` with ``a`` replaced by the incoming cotangent.
* ``split_like`` / ``unstack`` (the adjoints of concatenate / stack) return tuples; the
  cotangent of a tuple is an ``item_array`` (what ``scatter_add`` builds for ``r[i]``), and
  their adjoints join it back with ``np.concatenate`` / ``np.stack``.

Importing this module registers the rules (the tape is unaffected: none of these helpers is
a tape primitive; it differentiates them through the primitives they are made of).
"""

import linecache

import numpy as np

from . import arithmetic, products, shape  # noqa: F401
from .forms import jvp_like, linear
from .registry import define, lookup, nondifferentiable
from .support import (axis_index, broadcast_like, dtype_of, expand_reduced, inverse_permutation, item_array,
                      items_like, keepdims_shape, normalize_axes, reduced_size, shape_of, split_like,
                      sublist_subscripts, unbroadcast, unstack, value_of)
from .tuples import item_seed

__all__ = ["sum_like"]


def sum_like(h, g, x, axis=None, keepdims=False):
    """The adjoint of ``expand_reduced(g, x, axis, keepdims)``: sum ``h`` (shaped like x) to g's shape."""
    if not keepdims and axis is not None:
        return np.reshape(np.sum(h, axis=axis), shape_of(g))
    return unbroadcast(h, g)


# unbroadcast(g, x) <-> broadcast_like(t, ans)
@linear(unbroadcast)
def unbroadcast_vjp(h, ans, g, x):
    return broadcast_like(h, g)


def broadcast_like_vjp(h, out, t, ans):
    return unbroadcast(h, t)


# expand_reduced(g, x, axis, keepdims) <-> sum_like(h, g, x, axis, keepdims)
def expand_reduced_vjp(h, ans, g, x, axis=None, keepdims=False):
    return sum_like(h, g, x, axis, keepdims)


def expand_reduced_jvp(t, ans, g, x, axis=None, keepdims=False):
    return expand_reduced(t, x, axis, keepdims)


def sum_like_vjp(k, ans, h, g, x, axis=None, keepdims=False):
    return expand_reduced(k, x, axis, keepdims)


def sum_like_jvp(t, ans, h, g, x, axis=None, keepdims=False):
    return sum_like(t, g, x, axis, keepdims)


# split_like / unstack return tuples; a tuple's cotangent is an item_array or a sparse Grads (see
# support.py), read back item by item
def split_like_vjp(h, ans, g, arrays, axis):
    parts = items_like(h, ans)
    if axis is None:
        return np.concatenate([np.ravel(p) for p in parts])
    return np.concatenate(parts, axis=axis)


def split_like_jvp(t, ans, g, arrays, axis):
    return split_like(t, arrays, axis)


def unstack_vjp(h, ans, g, n, axis):
    return np.stack(items_like(h, ans), axis=axis % np.ndim(g))


def unstack_jvp(t, ans, g, n, axis):
    return unstack(t, n, axis)


# generated code calls these two by name (not inlined), so code transformed again meets them
# and their own rules below instead of np.stack/np.concatenate of a tuple-valued cotangent
split_like_vjp.call_by_name = unstack_vjp.call_by_name = True


# items_like(h, likes) reads a tuple's cotangent item by item (eigh_vjp, svd_vjp, qr_vjp...): linear
# in h, and only likes' shapes matter.  Its adjoint packs the items' cotangents back into an item_array.
def items_like_vjp(k, ans, h, likes):
    return item_array(items_like(k, likes))


def items_like_jvp(t, ans, h, likes):
    return items_like(t, likes)


# ... and rules for those two (both linear in the cotangent h), for third derivatives
def split_like_vjp_vjp(k, ans, h, res, g, arrays, axis):
    return item_array(split_like(k, arrays, axis))


def split_like_vjp_jvp(t, ans, h, res, g, arrays, axis):
    return split_like_vjp(t, res, g, arrays, axis)


def unstack_vjp_vjp(k, ans, h, res, g, n, axis):
    return item_array(unstack(k, n, axis))


def unstack_vjp_jvp(t, ans, h, res, g, n, axis):
    return unstack_vjp(t, res, g, n, axis)


define(broadcast_like, vjp=(broadcast_like_vjp, None), jvp=jvp_like(broadcast_like_vjp, None))
define(expand_reduced, vjp=(expand_reduced_vjp, None), jvp=(expand_reduced_jvp, None))
define(sum_like, vjp=(sum_like_vjp, None, None), jvp=(sum_like_jvp, None, None))
define(split_like, vjp=(split_like_vjp, None), jvp=(split_like_jvp, None))
define(unstack, vjp=(unstack_vjp, None), jvp=(unstack_jvp, None))
define(items_like, vjp=(items_like_vjp, None), jvp=(items_like_jvp, None))
define(split_like_vjp, vjp=(split_like_vjp_vjp, None), jvp=(split_like_vjp_jvp, None))
define(unstack_vjp, vjp=(unstack_vjp_vjp, None), jvp=(unstack_vjp_jvp, None))
nondifferentiable(shape_of, reduced_size, axis_index, keepdims_shape, normalize_axes, inverse_permutation,
                  dtype_of, value_of, sublist_subscripts)   # dtypes and values read for checks: the rules' VJPs differentiated again


# --- bilinear primitives: rules for their VJP rules ---------------------------------------
_BILINEAR = """
def {va}_jvp_g(t, res, g, ans, a, b{extra}):
    return {va}(t, ans, a, b)


def {va}_jvp_b(t, res, g, ans, a, b{extra}):
    return {va}(g, ans, a, t)


def {va}_vjp_g(h, res, g, ans, a, b{extra}):
    return {ja}(h, ans, a, b)


def {va}_vjp_b(h, res, g, ans, a, b{extra}):
    return {vb}(g, ans, h, b)


def {vb}_jvp_g(t, res, g, ans, a, b{extra}):
    return {vb}(t, ans, a, b)


def {vb}_jvp_a(t, res, g, ans, a, b{extra}):
    return {vb}(g, ans, t, b)


def {vb}_vjp_g(h, res, g, ans, a, b{extra}):
    return {jb}(h, ans, a, b)


def {vb}_vjp_a(h, res, g, ans, a, b{extra}):
    return {va}(g, ans, a, h)


define({va}, vjp=({va}_vjp_g, None, None, {va}_vjp_b), jvp=({va}_jvp_g, None, None, {va}_jvp_b))
define({vb}, vjp=({vb}_vjp_g, None, {vb}_vjp_a, None), jvp=({vb}_jvp_g, None, {vb}_jvp_a, None))


# the JVP rules P(t, b) and P(a, t) are bilinear too (third derivatives call them by name)
def {ja}_jvp_t(s, res, t, ans, a, b{extra}):
    return {ja}(s, ans, a, b)


def {ja}_jvp_b(s, res, t, ans, a, b{extra}):
    return {ja}(t, ans, a, s)


def {ja}_vjp_t(h, res, t, ans, a, b{extra}):
    return {va}(h, ans, a, b)


def {ja}_vjp_b(h, res, t, ans, a, b{extra}):
    return {vb}(h, ans, t, b)


def {jb}_jvp_t(s, res, t, ans, a, b{extra}):
    return {jb}(s, ans, a, b)


def {jb}_jvp_a(s, res, t, ans, a, b{extra}):
    return {jb}(t, ans, s, b)


def {jb}_vjp_t(h, res, t, ans, a, b{extra}):
    return {vb}(h, ans, a, b)


def {jb}_vjp_a(h, res, t, ans, a, b{extra}):
    return {va}(h, ans, a, t)


define({ja}, vjp=({ja}_vjp_t, None, None, {ja}_vjp_b), jvp=({ja}_jvp_t, None, None, {ja}_jvp_b))
define({jb}, vjp=({jb}_vjp_t, None, {jb}_vjp_a, None), jvp=({jb}_jvp_t, None, {jb}_jvp_a, None))
"""


def _bilinear(module, prim, extra=""):
    rule = lookup(prim)
    va, vb = rule.vjp(0), rule.vjp(1)
    ja, jb = rule.jvp(0), rule.jvp(1)
    source = _BILINEAR.format(va=va.__name__, vb=vb.__name__, ja=ja.__name__, jb=jb.__name__, extra=extra)
    filename = f"<adjoin rules for {va.__name__}/{vb.__name__}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = dict(vars(module))
    namespace.update(define=define)
    exec(compile(source, filename, "exec"), namespace)
    globals().update({k: v for k, v in namespace.items()
                      if k.startswith((va.__name__, vb.__name__, ja.__name__, jb.__name__))})


_bilinear(arithmetic, np.matmul)
_bilinear(products, np.dot, extra=", out=None")


# item_seed(value, keys, items): a called function's tuple cotangent from its items' cotangents.
# Linear in the items (a tuple: each gets its slot of h); nothing flows to ``value``.
def item_seed_vjp_items(h, ans, value, keys, items):
    from .containers import slot
    n = len(value) if isinstance(value, tuple) else 0
    return tuple(slot(h, i % n if n else i, value[i]) for i in keys)


def item_seed_jvp_items(t, ans, value, keys, items):
    return item_seed(value, keys, t)


item_seed_vjp_items.call_by_name = item_seed_jvp_items.call_by_name = True
define(item_seed, vjp=(None, None, item_seed_vjp_items), jvp=(None, None, item_seed_jvp_items))
