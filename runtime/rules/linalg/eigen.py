"""Rules for eigendecompositions: ``eigh`` and ``eigvalsh`` (real symmetric or complex Hermitian),
``eig`` and ``eigvals`` (any square matrix with distinct eigenvalues, real or complex).  On tensors
each runs as one packed primitive whose items are read by recorded slices."""

import numpy as np

from ..fft import real_part
from ..registry import COMPOSITES, define, primitive
from ..support import items_like
from .matrix import H, T, any_nonzero, as_diag, conj, from_triangle, inverse_gaps, to_symmetric


# --- eigh (and eig): A = V diag(w) V^H ----------------------------------------------------------------
# dw = Re diag(V^H dA V),  dV = V (F o V^H dA V),  F_ij = 1 / (w_j - w_i).  numpy's eigh reads one
# triangle of A only (and the real part of a complex diagonal), so its gradient lands in that
# triangle (as TensorFlow's does); eig reads all.  A complex eigenvector's phase is arbitrary: dV is
# the one with Im(v_j^H dv_j) = 0, as JAX's, so losses that do not depend on the phases (|v|,
# v v^H) get their derivative.

def eigh_grad(gw, gv, w, v, UPLO="L"):
    """The gradient w.r.t. ``a`` of ``w, v = eigh(a)``."""
    inner = as_diag(np.real(gw) if np.iscomplexobj(gw) else gw)
    if any_nonzero(gv):
        inner = inner + inverse_gaps(w, "np.linalg.eigh") * np.matmul(T(v), gv)
    return from_triangle(np.matmul(np.matmul(conj(v), inner), T(v)), UPLO)


def eigh_tangent(t, w, v, UPLO="L"):
    """(dw, dv) of ``w, v = eigh(a)`` along ``t``."""
    p = np.matmul(np.matmul(H(v), to_symmetric(t, UPLO)), v)
    dv = np.matmul(v, inverse_gaps(w, "np.linalg.eigh") * p)
    dw = np.diagonal(p, axis1=-2, axis2=-1)
    return (np.real(dw) if np.iscomplexobj(dw) else dw), dv


# eig: a general matrix with distinct (possibly complex) eigenvalues and unit-norm eigenvectors
# (V^-1 where eigh has V^H; the columns kept at unit length).  With U-bar the eigenvector cotangent
# less its unit-norm component:  A-bar = V^-T (diag(w-bar) + F o V^T U-bar) V^T.

def eig_grad(gw, gv, w, v):
    inner = as_diag(gw)
    if any_nonzero(gv):
        gv = gv - conj(v) * real_part(np.sum(v * gv, axis=-2, keepdims=True))    # the unit-norm constraint
        inner = inner + inverse_gaps(w, "np.linalg.eig") * np.matmul(T(v), gv)
    vinv = np.linalg.inv(v)
    return np.matmul(np.matmul(T(vinv), inner), T(v))


def eig_tangent(t, w, v):
    p = np.matmul(np.matmul(np.linalg.inv(v), t), v)
    dv = np.matmul(v, inverse_gaps(w, "np.linalg.eig") * p)
    dv = dv - v * real_part(np.sum(conj(v) * dv, axis=-2, keepdims=True))
    return np.diagonal(p, axis1=-2, axis2=-1), dv


def eigh_vjp(g, ans, a, UPLO="L"):
    gw, gv = items_like(g, ans)
    return eigh_grad(gw, gv, ans[0], ans[1], UPLO)


def eigh_jvp(t, ans, a, UPLO="L"):
    return eigh_tangent(t, ans[0], ans[1], UPLO)


def pack_rows(first, rest):
    """One array from a row vector (batch) and a matrix (batch): ``first`` becomes row 0."""
    return np.concatenate([np.expand_dims(first, -2), rest], axis=-2)


@primitive
def eigh_packed(a, UPLO="L"):
    """``w, v = np.linalg.eigh(a)`` as one array: row 0 is w, the rest is v (one recorded op)."""
    w, v = np.linalg.eigh(a, UPLO)
    return pack_rows(w, v)


def eigh_packed_vjp(g, ans, a, UPLO="L"):
    return eigh_grad(g[..., 0, :], g[..., 1:, :], ans[..., 0, :], ans[..., 1:, :], UPLO)


def eigh_packed_jvp(t, ans, a, UPLO="L"):
    dw, dv = eigh_tangent(t, ans[..., 0, :], ans[..., 1:, :], UPLO)
    return pack_rows(dw, dv)


EighResult = type(np.linalg.eigh(np.eye(1)))


def eigh_on_tensors(a, UPLO="L"):
    p = eigh_packed(a, UPLO)
    w = p[..., 0, :]
    return EighResult(real_part(w) if np.iscomplexobj(w) else w, p[..., 1:, :])   # (packed as complex)


define(np.linalg.eigh, vjp=(eigh_vjp,), jvp=(eigh_jvp,))
define(eigh_packed, vjp=(eigh_packed_vjp,), jvp=(eigh_packed_jvp,))
COMPOSITES[np.linalg.eigh] = eigh_on_tensors


def eigvalsh_vjp(g, ans, a, UPLO="L"):
    return eigh_grad(g, 0, ans, np.linalg.eigh(a, UPLO)[1], UPLO)


def eigvalsh_jvp(t, ans, a, UPLO="L"):
    v = np.linalg.eigh(a, UPLO)[1]
    return real_part(np.sum(np.matmul(to_symmetric(t, UPLO), v) * conj(v), axis=-2))


define(np.linalg.eigvalsh, vjp=(eigvalsh_vjp,), jvp=(eigvalsh_jvp,))


def real_for_real(grad, a):
    """The gradient of a real input: the real part where the outputs were complex (numpy >= 2.5's eig)."""
    return real_part(grad) if np.iscomplexobj(grad) and not np.iscomplexobj(a) else grad


def eig_vjp(g, ans, a):
    gw, gv = items_like(g, ans)
    return real_for_real(eig_grad(gw, gv, ans[0], ans[1]), a)


def eig_jvp(t, ans, a):
    return eig_tangent(t, ans[0], ans[1])


@primitive
def eig_packed(a):
    """``w, v = np.linalg.eig(a)`` as one array (row 0 is w)."""
    w, v = np.linalg.eig(a)
    return pack_rows(w, v)


def eig_packed_vjp(g, ans, a):
    return real_for_real(eig_grad(g[..., 0, :], g[..., 1:, :], ans[..., 0, :], ans[..., 1:, :]), a)


def eig_packed_jvp(t, ans, a):
    dw, dv = eig_tangent(t, ans[..., 0, :], ans[..., 1:, :])
    return pack_rows(dw, dv)


EigResult = type(np.linalg.eig(np.eye(1)))


def eig_on_tensors(a):
    p = eig_packed(a)
    return EigResult(p[..., 0, :], p[..., 1:, :])


def eigvals_vjp(g, ans, a):
    return real_for_real(eig_grad(g, 0, ans, np.linalg.eig(a)[1]), a)


def eigvals_jvp(t, ans, a):
    v = np.linalg.eig(a)[1]             # the values alone: no need for distinct eigenvalues
    return np.diagonal(np.matmul(np.matmul(np.linalg.inv(v), t), v), axis1=-2, axis2=-1)


define(np.linalg.eig, vjp=(eig_vjp,), jvp=(eig_jvp,))
define(eig_packed, vjp=(eig_packed_vjp,), jvp=(eig_packed_jvp,))
define(np.linalg.eigvals, vjp=(eigvals_vjp,), jvp=(eigvals_jvp,))
COMPOSITES[np.linalg.eig] = eig_on_tensors
