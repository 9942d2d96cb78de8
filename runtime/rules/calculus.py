"""Rules for numerical calculus and signal helpers: gradient (every axis, spacing and edge order),
unwrap, and cov (rows are variables, no weights).

``np.gradient`` is linear in f: central differences inside, one-sided ones at the two ends;
its VJP applies the transposed stencil.  ``np.unwrap`` adds multiples of the period where
the input jumps, a piecewise-constant correction: its derivative is the identity (away from
the jumps themselves).
"""

import numpy as np

from .reductions import centred_conj, conj_if_complex
from .forms import jvp_like
from .registry import COMPOSITES, define, nondifferentiable, primitive
from .support import items_like, shape_of, unbroadcast, value_of


# np.gradient(f, *varargs, axis=None, edge_order=1) differentiates along each axis it is given
# with a linear stencil whose weights depend on the spacing only: three neighbours inside, three
# at an edge.  The VJP applies the transposed stencil, its weights read off numpy itself (np.gradient
# of five combs, comb k being 1 where index % 5 == k: at each position the five neighbours i-2..i+2
# fall in different combs), so every spacing form (one scalar, one per axis, coordinate arrays)
# and both edge orders are numpy's own.  Several axes give a tuple, one array per axis.
def gradient_axes(f, varargs, axis):
    """The axes np.gradient differentiates along, and each one's spacing (a scalar or coordinates)."""
    nd = np.ndim(f)
    axes = range(nd) if axis is None else axis if isinstance(axis, (tuple, list)) else (axis,)
    axes = [a % nd for a in axes]
    if not varargs:
        return axes, [1.0] * len(axes)
    if len(varargs) == 1 and np.ndim(varargs[0]) == 0:
        return axes, list(varargs) * len(axes)
    return axes, list(varargs)


def stencil_bands(n, spacing, edge_order):
    """(5, n) weights: row d + 2 holds, at i, the weight of f[i + d] in the derivative at i."""
    i = np.arange(n)
    combs = (i % 5 == np.arange(5)[:, None]).astype(np.float64)
    rows = np.gradient(combs, value_of(spacing), axis=1, edge_order=edge_order)
    return np.stack([np.where((i + d >= 0) & (i + d < n), rows[(i + d) % 5, i], 0.0) for d in range(-2, 3)])


nondifferentiable(stencil_bands)


def stencil_transposed(G, bands):
    """The transposed stencil along the last axis: the weighted G[..., i] sent to i + d."""
    n = shape_of(G)[-1]
    lead = [(0, 0)] * (np.ndim(G) - 1)
    out = bands[2] * G
    for d in (-2, -1, 1, 2):
        if abs(d) < n:
            term = bands[d + 2] * G
            out = out + (np.pad(term[..., :n - d], lead + [(d, 0)]) if d > 0 else
                         np.pad(term[..., -d:], lead + [(0, -d)]))
    return out


def gradient_parts(g, ans, naxes):
    """The cotangent of each axis's derivative (a tuple's cotangent has one part per item)."""
    return [g] if naxes == 1 else items_like(g, ans)


def gradient_vjp(g, ans, f, *varargs, axis=None, edge_order=1):
    axes, spacing = gradient_axes(f, varargs, axis)
    total = 0.0
    for ax, dx, part in zip(axes, spacing, gradient_parts(g, ans, len(axes))):
        bands = stencil_bands(shape_of(f)[ax], dx, edge_order)
        total = total + np.moveaxis(stencil_transposed(np.moveaxis(part, ax, -1), bands), -1, ax)
    return total


def gradient_jvp(t, ans, f, *varargs, axis=None, edge_order=1):
    return np.gradient(t, *varargs, axis=axis, edge_order=edge_order)


# A scalar spacing h divides the derivative along its axes: d/dh = -ans / h.  Coordinates have no
# rule (refused, never a silent zero).
def spacing_axes(f, varargs, axis, k):
    """The positions (among the results) that spacing argument ``k`` scales."""
    if np.ndim(varargs[k]) != 0:
        raise NotImplementedError("np.gradient: no derivative with respect to coordinate arrays; "
                                  "differentiate with respect to f, or pass a scalar spacing")
    axes = gradient_axes(f, varargs, axis)[0]
    return list(range(len(axes))) if len(varargs) == 1 else [k]


def spacing_vjp(g, ans, f, varargs, axis, k):
    naxes = len(gradient_axes(f, varargs, axis)[0])
    parts = gradient_parts(g, ans, naxes)
    outs = [ans] if naxes == 1 else list(ans)
    total = sum(np.sum(parts[i] * outs[i]) for i in spacing_axes(f, varargs, axis, k))
    return unbroadcast(-total / varargs[k], varargs[k])


def spacing_jvp(t, ans, f, varargs, axis, k):
    naxes = len(gradient_axes(f, varargs, axis)[0])
    outs = [ans] if naxes == 1 else list(ans)
    scaled = spacing_axes(f, varargs, axis, k)
    parts = [-t * outs[i] / varargs[k] if i in scaled else np.zeros_like(outs[i]) for i in range(naxes)]
    return parts[0] if naxes == 1 else tuple(parts)


def gradient_vjp_spacing0(g, ans, f, *varargs, axis=None, edge_order=1):
    return spacing_vjp(g, ans, f, varargs, axis, 0)


def gradient_vjp_spacing1(g, ans, f, *varargs, axis=None, edge_order=1):
    return spacing_vjp(g, ans, f, varargs, axis, 1)


def gradient_vjp_spacing2(g, ans, f, *varargs, axis=None, edge_order=1):
    return spacing_vjp(g, ans, f, varargs, axis, 2)


def gradient_vjp_spacing3(g, ans, f, *varargs, axis=None, edge_order=1):
    return spacing_vjp(g, ans, f, varargs, axis, 3)


def gradient_jvp_spacing0(t, ans, f, *varargs, axis=None, edge_order=1):
    return spacing_jvp(t, ans, f, varargs, axis, 0)


def gradient_jvp_spacing1(t, ans, f, *varargs, axis=None, edge_order=1):
    return spacing_jvp(t, ans, f, varargs, axis, 1)


def gradient_jvp_spacing2(t, ans, f, *varargs, axis=None, edge_order=1):
    return spacing_jvp(t, ans, f, varargs, axis, 2)


def gradient_jvp_spacing3(t, ans, f, *varargs, axis=None, edge_order=1):
    return spacing_jvp(t, ans, f, varargs, axis, 3)


define(np.gradient,
       vjp=(gradient_vjp, gradient_vjp_spacing0, gradient_vjp_spacing1, gradient_vjp_spacing2, gradient_vjp_spacing3),
       jvp=(gradient_jvp, gradient_jvp_spacing0, gradient_jvp_spacing1, gradient_jvp_spacing2, gradient_jvp_spacing3))


# On tensors np.gradient of several axes runs as one recorded op per axis (the tape records one
# array per op).
@primitive
def gradient_along(f, spacing, axis, edge_order=1):
    """``np.gradient(f, spacing, axis=axis, edge_order=edge_order)`` along one axis."""
    return np.gradient(f, spacing, axis=axis, edge_order=edge_order)


def gradient_along_vjp(g, ans, f, spacing, axis, edge_order=1):
    return gradient_vjp(g, ans, f, spacing, axis=axis, edge_order=edge_order)


def gradient_along_vjp_spacing(g, ans, f, spacing, axis, edge_order=1):
    return spacing_vjp(g, ans, f, (spacing,), axis, 0)


def gradient_along_jvp(t, ans, f, spacing, axis, edge_order=1):
    return gradient_along(t, spacing, axis, edge_order)


def gradient_along_jvp_spacing(t, ans, f, spacing, axis, edge_order=1):
    return spacing_jvp(t, ans, f, (spacing,), axis, 0)


define(gradient_along, vjp=(gradient_along_vjp, gradient_along_vjp_spacing),
       jvp=(gradient_along_jvp, gradient_along_jvp_spacing))


def gradient_on_tensors(f, *varargs, axis=None, edge_order=1):
    axes, spacing = gradient_axes(f, varargs, axis)
    outs = tuple(gradient_along(f, dx, ax, edge_order) for ax, dx in zip(axes, spacing))
    return outs[0] if len(outs) == 1 else outs


COMPOSITES[np.gradient] = gradient_on_tensors


def unwrap_vjp(g, ans, p, discont=None, axis=-1, period=6.283185307179586):
    return g


define(np.unwrap, vjp=(unwrap_vjp,), jvp=jvp_like(unwrap_vjp))


# cov(m) = c @ c.T / (n - ddof) with c the rows of m centred
def cov_options(m, y, rowvar, bias, ddof, fweights, aweights):
    if y is not None or not rowvar or fweights is not None or aweights is not None or np.ndim(m) != 2:
        raise NotImplementedError("np.cov derivatives support a 2-d m with rowvar=True and no y=, "
                                  "fweights= or aweights=")
    n = shape_of(m)[1]
    return n - (ddof if ddof is not None else (0 if bias else 1))


def cov_vjp(g, ans, m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, dtype=None):
    dof = cov_options(m, y, rowvar, bias, ddof, fweights, aweights)
    c = centred_conj(m, 1)                               # cov = c @ c^H / dof for complex m
    g = np.reshape(g, (shape_of(m)[0],) * 2)            # (one variable: cov is 0-d)
    return np.matmul(g + conj_if_complex(np.transpose(g)), c) / dof


def cov_jvp(t, ans, m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, dtype=None):
    dof = cov_options(m, y, rowvar, bias, ddof, fweights, aweights)
    tc = t - np.mean(t, axis=1, keepdims=True)
    half = np.matmul(tc, np.transpose(centred_conj(m, 1)))      # the other half is its conjugate transpose
    return np.reshape((half + conj_if_complex(np.transpose(half))) / dof, shape_of(ans))


define(np.cov, vjp=(cov_vjp,), jvp=(cov_jvp,))
