"""Rules for ``np.linalg.norm`` (every ``ord``, ``axis``, ``keepdims``) and numpy 2's ``matrix_norm``
and ``vector_norm`` (its ``svdvals`` has the rules of ``svd_values``, in ``decompositions``)."""

import numpy as np

from ..registry import define, nondifferentiable
from ..support import shape_of
from .matrix import conj


# --- norm: every ord numpy accepts, for vectors (one axis) and matrices (two axes) ------------------
# The gradient of the 2-norm at the zero vector is NaN (0/0), as in TensorFlow.  Where a max / min
# is tied (ord=inf, matrix ord=1, ...) the gradient is split evenly among the tied entries.

def norm_axes(x, ord, axis):
    nd = len(shape_of(x))
    if axis is None:
        if ord is None:
            return tuple(range(nd))
        return tuple(range(nd)) if nd in (1, 2) else None
    if isinstance(axis, (tuple, list)):
        return tuple(a % nd for a in axis)
    return (axis % nd,)


def keep_reduced(v, x, axes, keepdims):
    """``v`` (shaped like the norm) reshaped with ones at ``axes`` so it broadcasts against x."""
    if keepdims:
        return v
    s = shape_of(x)
    return np.reshape(v, tuple(1 if i in axes else d for i, d in enumerate(s)))


def tie_share(values, best, axis):
    """1/count where ``values`` equal their reduced ``best`` along ``axis`` (split ties evenly), else 0."""
    ties = np.where(values == best, np.ones_like(values), np.zeros_like(values))
    return ties / np.sum(ties, axis=axis, keepdims=True)


# A complex x: every norm is a function of |x| (or of the singular values), so the cotangent is the
# real case's with x / |x| for sign(x), conjugated (d|z| is Re(conj(z) dz) / |z|), and the tangent is
# the real part of its pairing with t.

def unit(x):
    """d|x|/dx as the cotangent convention reads it: sign(x), conj(x) / |x| for complex x."""
    return np.conj(x) / np.abs(x) if np.iscomplexobj(x) else np.sign(x)


def norm_grad(g, ans, x, ord=None, axis=None, keepdims=False):
    """d norm(x) / d x weighted by ``g`` (shaped like the norm)."""
    axes = norm_axes(x, ord, axis)
    gk = keep_reduced(g, x, axes, keepdims)
    nk = keep_reduced(ans, x, axes, keepdims)
    if ord is None or ord == "fro" or (ord == 2 and len(axes) == 1):
        return gk * conj(x) / nk
    if len(axes) == 1:
        return vector_norm_grad(gk, nk, x, ord, axes)
    row, col = axes
    if ord in (1, -1, np.inf, -np.inf):
        summed, other = (row, col) if ord in (1, -1) else (col, row)
        sums = np.sum(np.abs(x), axis=summed, keepdims=True)
        return gk * unit(x) * tie_share(sums, nk, other)
    # nuclear (the sum of singular values), 2 (the largest), -2 (the smallest): ds = Re(u^H dA v)
    moved = np.moveaxis(x, (row, col), (-2, -1))
    u, s, vh = np.linalg.svd(moved, full_matrices=False)
    if ord == "nuc":
        d = np.matmul(conj(u), conj(vh))
    else:
        i = 0 if ord == 2 else -1
        d = np.expand_dims(conj(u[..., :, i]), -1) * np.expand_dims(conj(vh[..., i, :]), -2)
    return gk * np.moveaxis(d, (-2, -1), (row, col))


def vector_norm_grad(gk, nk, x, ord, axes):
    """The p-norm over ``axes`` (one or several; ``gk``, ``nk`` broadcast against x)."""
    if ord == 2:
        return gk * conj(x) / nk
    if ord == np.inf or ord == -np.inf:
        return gk * unit(x) * tie_share(np.abs(x), nk, tuple(axes))
    if ord == 0:
        return np.zeros_like(x)
    if ord == 1:
        return gk * unit(x)
    return gk * unit(x) * np.abs(x) ** (ord - 1) / nk ** (ord - 1)


def norm_vjp(g, ans, x, ord=None, axis=None, keepdims=False):
    return norm_grad(g, ans, x, ord, axis, keepdims)


def norm_jvp(t, ans, x, ord=None, axis=None, keepdims=False):
    d = norm_grad(np.ones_like(ans), ans, x, ord, axis, keepdims)
    dn = np.sum(d * t, axis=norm_axes(x, ord, axis), keepdims=keepdims)
    return np.real(dn) if np.iscomplexobj(dn) else dn


define(np.linalg.norm, vjp=(norm_vjp,), jvp=(norm_jvp,))


def matrix_norm_vjp(g, ans, x, keepdims=False, ord="fro"):
    return norm_grad(g, ans, x, ord, (-2, -1), keepdims)


def matrix_norm_jvp(t, ans, x, keepdims=False, ord="fro"):
    return norm_jvp(t, ans, x, ord, (-2, -1), keepdims)


def vector_axes(x, axis):
    """The axes ``np.linalg.vector_norm`` reduces (all of them for ``axis=None``)."""
    return norm_axes(x, None, axis)


def vector_norm_vjp(g, ans, x, axis=None, keepdims=False, ord=2):
    axes = vector_axes(x, axis)
    return vector_norm_grad(keep_reduced(g, x, axes, keepdims), keep_reduced(ans, x, axes, keepdims), x, ord, axes)


def vector_norm_jvp(t, ans, x, axis=None, keepdims=False, ord=2):
    d = vector_norm_vjp(np.ones_like(ans), ans, x, axis, keepdims, ord)
    dn = np.sum(d * t, axis=vector_axes(x, axis), keepdims=keepdims)
    return np.real(dn) if np.iscomplexobj(dn) else dn


# the axes are ints read from x's shape: constants when the rules above are differentiated again
nondifferentiable(norm_axes, vector_axes)
define(np.linalg.matrix_norm, vjp=(matrix_norm_vjp,), jvp=(matrix_norm_jvp,))
define(np.linalg.vector_norm, vjp=(vector_norm_vjp,), jvp=(vector_norm_jvp,))
