"""Vector-Jacobian products for a whole batch of cotangents at once (for ``tape.jacobian``).

A jacobian is one backward sweep whose cotangents carry a leading batch axis of size n (one
one-hot seed per target element).  Each rule is applied to the batch in one of four ways:

* *elementwise* rules (``g * cos(x)``, ``g * ans``, ``matmul(T(ans), g)``...) broadcast over
  the extra axis unchanged: they are called as they are;
* rules written with ``unbroadcast`` / ``expand_reduced`` / ``scatter_add`` (the arithmetic
  operators, where/clip/maximum, matmul, sum/mean/max/prod/logsumexp, indexing and gather)
  are re-bound to batch-aware versions of those helpers, which keep axis 0 -- the rule's own
  code is unchanged;
* shape rules (reshape, transpose, swapaxes, flip, concatenate, stack, einsum) have a short
  batched counterpart here;
* anything else is applied once per batch element and stacked (correct for every rule, just
  not vectorised).  A batched result whose shape is not (n,) + the argument's shape falls back
  to that loop too.
"""

import types

import numpy as np

from ..rules import (activations, arithmetic, elementwise, linalg, reductions, selection, shape, special, support,
                    trig)
from ..rules import gather as gather_rules
from ..rules import nn as nn_rules
from ..rules.support import inverse_permutation, keepdims_shape, normalize_axes, shape_of

__all__ = ["batched_vjp", "Fallback"]


class Fallback(Exception):
    """Raised by a batched rule that cannot handle this call: use the per-element loop."""


# --- batch-aware helpers (axis 0 of g is the batch) ----------------------------------------

def b_unbroadcast(g, x):
    gshape = shape_of(g)
    n, inner = gshape[0], gshape[1:]
    xshape = shape_of(x)
    if inner == xshape:
        return g
    lead = len(inner) - len(xshape)
    if lead < 0:
        raise Fallback
    axes = tuple(range(1, lead + 1)) + tuple(
        i + lead + 1 for i, d in enumerate(xshape) if d == 1 and inner[i + lead] != 1)
    if axes:
        g = np.sum(g, axis=axes)
    return np.reshape(g, (n,) + xshape)


def b_expand_reduced(g, x, axis=None, keepdims=False):
    xshape = shape_of(x)
    if keepdims:
        nd = len(xshape)
    elif axis is None:
        nd = 0
    else:
        nd = len(xshape) - len(normalize_axes(axis, len(xshape)))
    if np.ndim(g) == nd:
        return support.expand_reduced(g, x, axis, keepdims)
    if np.ndim(g) != nd + 1:
        raise Fallback
    n = shape_of(g)[0]
    g = np.reshape(g, (n,) + keepdims_shape(xshape, axis))
    return np.broadcast_to(g, (n,) + xshape)


def _advanced_split(idx):
    """True when the index has advanced parts separated by basic ones (numpy then moves them)."""
    items = idx if isinstance(idx, tuple) else (idx,)
    has_array = any(isinstance(i, (np.ndarray, list)) for i in items)
    if not has_array:
        return False
    adv = [isinstance(i, (np.ndarray, list, int, np.integer)) for i in items]
    first = adv.index(True)
    last = len(adv) - 1 - adv[::-1].index(True)
    return not all(adv[first:last + 1])


def b_scatter_add(g, x, idx):
    if _advanced_split(idx):
        raise Fallback
    items = idx if isinstance(idx, tuple) else (idx,)
    if any(isinstance(i, np.ndarray) and i.dtype == bool for i in items):
        raise Fallback
    n = shape_of(g)[0]
    dummy = np.broadcast_to(np.int8(0), (n,) + shape_of(x))
    return support.scatter_add(g, dummy, (slice(None),) + items)


_HELPERS = {"unbroadcast": b_unbroadcast, "expand_reduced": b_expand_reduced,
            "scatter_add": b_scatter_add}


def _rebind(fn):
    g = dict(fn.__globals__)
    g.update({k: v for k, v in _HELPERS.items() if k in g})
    new = types.FunctionType(fn.__code__, g, fn.__name__, fn.__defaults__, fn.__closure__)
    new.__kwdefaults__ = fn.__kwdefaults__
    return new


# --- hand-written batched shape rules ------------------------------------------------------

def _n(g):
    return shape_of(g)[0]


def b_reshape_like_arg(g, ans, a, *args, **kwargs):
    return np.reshape(g, (_n(g),) + shape_of(a))


def b_transpose(g, ans, a, axes=None):
    nd = len(shape_of(a))
    perm = tuple(range(nd - 1, -1, -1)) if axes is None else axes
    inv = inverse_permutation(perm, nd)
    return np.transpose(g, (0,) + tuple(i + 1 for i in inv))


def b_swapaxes(g, ans, a, axis1, axis2):
    nd = len(shape_of(a))
    return np.swapaxes(g, axis1 % nd + 1, axis2 % nd + 1)


def b_flip(g, ans, m, axis=None):
    nd = len(shape_of(m))
    if axis is None:
        ax = tuple(range(1, nd + 1))
    elif isinstance(axis, (tuple, list)):
        ax = tuple(a % nd + 1 for a in axis)
    else:
        ax = axis % nd + 1
    return np.flip(g, ax)


def b_concatenate(g, ans, arrays, axis=0, out=None, dtype=None, casting="same_kind"):
    if axis is None:
        raise Fallback
    pieces, start = [], 0
    for a in arrays:
        s = shape_of(a)
        ax = axis % len(s)
        pieces.append(g[(slice(None),) * (ax + 1) + (slice(start, start + s[ax]),)])
        start += s[ax]
    return tuple(pieces)


def b_stack(g, ans, arrays, axis=0, out=None, dtype=None, casting="same_kind"):
    ax = axis % len(shape_of(ans))
    return tuple(g[(slice(None),) * (ax + 1) + (i,)] for i in range(len(arrays)))


def b_take(g, ans, a, indices, axis=None, out=None, mode="raise"):
    if axis is None:
        raise Fallback
    return b_scatter_add(g, a, support.axis_index(indices, axis, np.ndim(a)))


def _b_einsum(k):
    def vjp(g, ans, subscripts, *operands, **kwargs):
        ins, out = linalg.einsum_parse(subscripts, [shape_of(o) for o in operands])
        target = ins[k]
        if len(set(target)) != len(target):
            raise Fallback
        letters = set("".join(ins) + out)
        b = next(c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" if c not in letters)
        others = [o for j, o in enumerate(operands) if j != k]
        other_subs = [s for j, s in enumerate(ins) if j != k]
        present = set(out).union(*[set(s) for s in other_subs])
        kept = "".join(c for c in target if c in present)
        r = np.einsum(",".join([b + out] + other_subs) + "->" + b + kept, g, *others)
        xs = shape_of(operands[k])
        if kept != target:
            r = np.reshape(r, (_n(g),) + tuple(xs[i] if c in present else 1 for i, c in enumerate(target)))
            r = np.broadcast_to(r, (_n(g),) + xs)
        return b_unbroadcast(r, operands[k])
    return vjp


def _b_matmul_vjp_a(rebound):
    def vjp(g, ans, a, b):
        """2-D a: the whole batch as one matrix product (numpy would loop over the batch)."""
        if np.ndim(a) != 2 or np.ndim(b) not in (1, 2):
            return rebound(g, ans, a, b)
        n, (p, k) = _n(g), shape_of(a)
        if np.ndim(b) == 1:  # ans (p,), g (n, p): d a = g (x) b
            return np.reshape(g, (n, p, 1)) * np.reshape(b, (1, 1, k))
        m = shape_of(b)[1]
        return np.reshape(np.matmul(np.reshape(g, (n * p, m)), np.swapaxes(b, 0, 1)), (n, p, k))
    return vjp


def _b_matmul_vjp_b(rebound):
    def vjp(g, ans, a, b):
        """2-D a: the whole batch as one matrix product (numpy would loop over the batch)."""
        if np.ndim(a) != 2 or np.ndim(b) not in (1, 2):
            return rebound(g, ans, a, b)
        n, (p, k) = _n(g), shape_of(a)
        if np.ndim(b) == 1:  # ans (p,), g (n, p)
            return np.matmul(g, a)
        m = shape_of(b)[1]
        if m == 1:  # a column: g (n, p, 1)
            return np.reshape(np.matmul(np.reshape(g, (n, p)), a), (n, k, 1))
        gt = np.reshape(np.swapaxes(g, 0, 1), (p, n * m))            # (p, n*m)
        r = np.reshape(np.matmul(np.swapaxes(a, 0, 1), gt), (k, n, m))
        return np.swapaxes(r, 0, 1)
    return vjp


# --- the table -----------------------------------------------------------------------------

_ELEMENTWISE_NAMES = {
    elementwise: ["exp_vjp", "exp2_vjp", "expm1_vjp", "log_vjp", "log2_vjp", "log10_vjp",
                  "log1p_vjp", "sqrt_vjp", "cbrt_vjp", "square_vjp", "reciprocal_vjp", "abs_vjp",
                  "sign_vjp"],
    trig: ["sin_vjp", "cos_vjp", "tan_vjp", "arcsin_vjp", "arccos_vjp",
           "arctan_vjp", "sinh_vjp", "cosh_vjp", "tanh_vjp", "arcsinh_vjp", "arccosh_vjp",
           "arctanh_vjp", "deg2rad_vjp", "rad2deg_vjp"],
    arithmetic: ["negative_vjp", "positive_vjp", "identity_vjp"],
    activations: ["sigmoid_vjp", "relu_vjp", "softplus_vjp"],
    nn_rules: ["relu6_vjp"],
    special: ["erf_vjp", "erfc_vjp"],
    shape: ["cast_vjp"],
    linalg: ["inv_vjp", "det_vjp"],
}

_REBIND_NAMES = {
    arithmetic: ["add_vjp_x", "add_vjp_y", "subtract_vjp_x", "subtract_vjp_y", "multiply_vjp_x", "multiply_vjp_y",
                 "divide_vjp_x", "divide_vjp_y", "power_vjp_x", "power_vjp_y", "matmul_vjp_a",
                 "matmul_vjp_b"],
    elementwise: ["logaddexp_vjp_x", "logaddexp_vjp_y", "mod_vjp_x", "mod_vjp_y", "fmod_vjp_x", "fmod_vjp_y"],
    trig: ["arctan2_vjp_y", "arctan2_vjp_x", "hypot_vjp_x", "hypot_vjp_y"],
    selection: ["maximum_vjp_x", "maximum_vjp_y", "minimum_vjp_x", "minimum_vjp_y", "where_vjp_x",
                "where_vjp_y", "clip_vjp_a", "clip_vjp_min", "clip_vjp_max"],
    reductions: ["sum_vjp", "mean_vjp", "max_vjp", "prod_vjp", "var_vjp", "std_vjp"],
    activations: ["logsumexp_vjp"],
    nn_rules: ["softmax_cross_entropy_vjp_labels", "softmax_cross_entropy_vjp_logits"],
    shape: ["broadcast_to_vjp", "getitem_vjp"],
    gather_rules: ["gather_vjp"],
}

_CUSTOM_NAMES = {
    shape: {"reshape_vjp": b_reshape_like_arg, "ravel_vjp": b_reshape_like_arg,
            "expand_dims_vjp": b_reshape_like_arg, "squeeze_vjp": b_reshape_like_arg,
            "transpose_vjp": b_transpose, "swapaxes_vjp": b_swapaxes, "flip_vjp": b_flip,
            "concatenate_vjp": b_concatenate, "stack_vjp": b_stack, "take_vjp": b_take},
    linalg: {"einsum_vjp_0": _b_einsum(0), "einsum_vjp_1": _b_einsum(1),
             "einsum_vjp_2": _b_einsum(2), "einsum_vjp_3": _b_einsum(3)},
}

_BATCHED = {}
"""vjp function -> its batched form (itself when elementwise)."""


def _build():
    for mod, names in _ELEMENTWISE_NAMES.items():
        for name in names:
            fn = getattr(mod, name, None)
            if fn is not None:
                _BATCHED[fn] = fn
    for mod, names in _REBIND_NAMES.items():
        for name in names:
            fn = getattr(mod, name, None)
            if fn is not None:
                _BATCHED[fn] = _rebind(fn)
    for mod, table in _CUSTOM_NAMES.items():
        for name, bfn in table.items():
            fn = getattr(mod, name, None)
            if fn is not None:
                _BATCHED[fn] = bfn


_build()
_BATCHED[arithmetic.matmul_vjp_a] = _b_matmul_vjp_a(_BATCHED[arithmetic.matmul_vjp_a])
_BATCHED[arithmetic.matmul_vjp_b] = _b_matmul_vjp_b(_BATCHED[arithmetic.matmul_vjp_b])


def is_vectorised(vjp):
    """Whether ``vjp`` runs once for a whole batch (else once per batch element)."""
    return vjp in _BATCHED or getattr(vjp, "batch_safe", False)


def batched_vjp(vjp, g, ans, call_args, kwargs):
    """The batched rule's result, or raises Fallback."""
    fn = _BATCHED.get(vjp)
    if fn is None:
        if getattr(vjp, "batch_safe", False):
            fn = vjp
        else:
            raise Fallback
    return fn(g, ans, *call_args, **kwargs) if kwargs else fn(g, ans, *call_args)
