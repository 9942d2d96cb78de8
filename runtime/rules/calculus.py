"""Rules for numerical calculus and signal helpers: gradient (one array, uniform spacing,
edge_order=1), unwrap, and cov (rows are variables, no weights).

``np.gradient`` is linear in f: central differences inside, one-sided ones at the two ends;
its VJP applies the transposed stencil.  ``np.unwrap`` adds multiples of the period where
the input jumps, a piecewise-constant correction: its derivative is the identity (away from
the jumps themselves).
"""

import numpy as np

from .reductions import centred_conj, conj_if_complex
from .forms import jvp_like
from .registry import define
from .support import shape_of


def gradient_axis(f, varargs, axis, edge_order):
    """The one axis and its uniform spacing, refusing what these rules do not cover."""
    if edge_order != 1 or (axis is None and np.ndim(f) != 1) or isinstance(axis, (tuple, list)) \
            or len(varargs) > 1 or varargs and np.ndim(varargs[0]) != 0:
        raise NotImplementedError("np.gradient derivatives support one axis (or a 1-d array), a scalar "
                                  "spacing and edge_order=1")
    return (0 if axis is None else axis % np.ndim(f)), (varargs[0] if varargs else 1.0)


def gradient_vjp(g, ans, f, *varargs, axis=None, edge_order=1):
    ax, h = gradient_axis(f, varargs, axis, edge_order)
    G = np.moveaxis(g, ax, -1)
    n = shape_of(G)[-1]
    lead = [(0, 0)] * (np.ndim(G) - 1)
    mid = G[..., 1:-1] / 2.0
    inner = np.pad(mid, lead + [(2, 0)]) - np.pad(mid, lead + [(0, 2)]) if n > 2 else 0.0 * G
    first, last = G[..., :1], G[..., -1:]
    ends = np.pad(np.concatenate([-first, first], axis=-1), lead + [(0, n - 2)]) + \
        np.pad(np.concatenate([-last, last], axis=-1), lead + [(n - 2, 0)])
    return np.moveaxis((inner + ends) / h, -1, ax)


def gradient_jvp(t, ans, f, *varargs, axis=None, edge_order=1):
    gradient_axis(f, varargs, axis, edge_order)
    return np.gradient(t, *varargs, axis=axis, edge_order=edge_order)


define(np.gradient, vjp=(gradient_vjp,), jvp=(gradient_jvp,))


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
