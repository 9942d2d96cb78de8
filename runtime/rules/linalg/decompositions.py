"""Rules for the factorizations ``cholesky``, ``svd`` and ``qr``.  Each reads the factors the forward
computed; on tensors the multi-output ones run as packed primitives (``COMPOSITES``)."""

import numpy as np

from ..registry import COMPOSITES, define, primitive
from ..support import dtype_of, items_like, shape_of
from ..fft import real_part
from .matrix import H, T, any_nonzero, as_diag, conj, copyltu, inverse_gaps, refuse_complex, triangle_masks, value_of


# --- Cholesky: A = L L^T (TensorFlow's symmetric gradient) ---------------------------------

def lower_half_mask(n, dtype):
    """Ones strictly below the diagonal, one half on it, zeros above (a constant)."""
    return (np.tril(np.ones((n, n)), -1) + 0.5 * np.eye(n)).astype(dtype)


def cholesky_vjp(g, ans, a):
    refuse_complex(a, "np.linalg.cholesky")
    n = shape_of(a)[-1]
    l_inv = np.linalg.inv(ans)
    middle = np.matmul(T(ans), g) * lower_half_mask(n, dtype_of(a))
    grad_a = np.matmul(np.matmul(T(l_inv), middle), l_inv)
    return 0.5 * (grad_a + T(grad_a))


def cholesky_jvp(t, ans, a):
    refuse_complex(a, "np.linalg.cholesky")
    n = shape_of(a)[-1]
    l_inv = np.linalg.inv(ans)
    phi = np.matmul(np.matmul(l_inv, t), T(l_inv))
    mask = lower_half_mask(n, dtype_of(a))
    return np.matmul(ans, phi * mask)


define(np.linalg.cholesky, vjp=(cholesky_vjp,), jvp=(cholesky_jvp,))


# --- svd (full_matrices=False): A = U diag(s) V^H  (Townsend, "Differentiating the SVD", 2016) ------
# With V = Vh^H, F_ij = 1 / (s_j^2 - s_i^2), and ^T transposes without conjugating:
#   dA-bar = conj(U) [(F o (U^T gU - (U^T gU)^H)) S + diag(gs) + S (F o (V^T gV - (V^T gV)^H)) + D] V^T
#            + (I - conj(U) U^T) gU S^-1 V^T + conj(U) S^-1 gVh (I - Vh^T conj(Vh))
# where gV = gVh^H and, for complex A, D = i Im diag(U^T gU) / s: the tangent puts the phase common to
# u_j and v_j into du_j (as JAX's does), so losses that do not depend on those phases (|u|, u v^H)
# get their derivative.

def svd_grad(gu, gs, gvh, u, s, vh):
    m, n, k = shape_of(u)[-2], shape_of(vh)[-1], shape_of(s)[-1]
    inner = as_diag(np.real(gs) if np.iscomplexobj(gs) else gs)
    vectors = any_nonzero(gu) or any_nonzero(gvh)
    if not vectors:
        return np.matmul(np.matmul(conj(u), inner), conj(vh))
    f = inverse_gaps(s * s, "np.linalg.svd", "singular values")
    srow, scol = np.expand_dims(s, -2), np.expand_dims(s, -1)
    ut_gu = np.matmul(T(u), gu)
    vt_gv = conj(np.matmul(vh, T(gvh)))
    inner = inner + f * (ut_gu - H(ut_gu)) * srow + scol * (f * (vt_gv - H(vt_gv)))
    if np.iscomplexobj(ut_gu):
        check_nonzero(s)
        inner = inner + as_diag(1j * np.imag(np.diagonal(ut_gu, axis1=-2, axis2=-1)) / s)
    out = np.matmul(np.matmul(conj(u), inner), conj(vh))
    if m > k:
        check_nonzero(s)
        out = out + np.matmul((gu - np.matmul(conj(u), ut_gu)) / srow, conj(vh))
    if n > k:
        check_nonzero(s)
        out = out + np.matmul(conj(u), (gvh - np.matmul(np.matmul(gvh, T(vh)), conj(vh))) / scol)
    return out


def svd_tangent(t, u, s, vh):
    """(du, ds, dvh) of ``u, s, vh = svd(a, full_matrices=False)`` along ``t``."""
    m, n, k = shape_of(u)[-2], shape_of(vh)[-1], shape_of(s)[-1]
    f = inverse_gaps(s * s, "np.linalg.svd", "singular values")
    srow, scol = np.expand_dims(s, -2), np.expand_dims(s, -1)
    dp = np.matmul(np.matmul(H(u), t), H(vh))
    du = np.matmul(u, f * (dp * srow + scol * H(dp)))
    dv = np.matmul(H(vh), f * (scol * dp + H(dp) * srow))
    ds = np.diagonal(dp, axis1=-2, axis2=-1)
    if np.iscomplexobj(ds):
        check_nonzero(s)
        du = du + np.matmul(u, as_diag(1j * np.imag(ds) / s))
        ds = np.real(ds)
    if m > k:
        check_nonzero(s)
        du = du + (np.matmul(t, H(vh)) - np.matmul(u, dp)) / srow
    if n > k:
        check_nonzero(s)
        dv = dv + (np.matmul(H(t), u) - np.matmul(H(vh), H(dp))) / srow
    return du, ds, H(dv)


def svdvals_tangent(t, u, vh):
    ds = np.sum(np.matmul(H(u), t) * conj(vh), axis=-1)
    return np.real(ds) if np.iscomplexobj(ds) else ds


def check_nonzero(s):
    if float(np.min(np.abs(value_of(s)))) <= 100 * np.finfo(value_of(s).dtype).eps * \
            max(float(np.max(np.abs(value_of(s)))), 1e-300):
        raise np.linalg.LinAlgError(
            "np.linalg.svd: the derivative of the singular vectors of a non-square matrix is undefined "
            "where a singular value is zero; differentiate only the singular values "
            "(np.linalg.svd(a, compute_uv=False)).")


def check_svd(a, full_matrices, hermitian, vectors):
    if hermitian:
        raise NotImplementedError("np.linalg.svd(..., hermitian=True) is not differentiated; "
                                  "use hermitian=False (the default) or np.linalg.eigh")
    m, n = shape_of(a)[-2], shape_of(a)[-1]
    if full_matrices and m != n and vectors:
        raise NotImplementedError(
            f"np.linalg.svd of a {m}x{n} matrix with full_matrices=True (numpy's default): the extra "
            f"{'columns of u' if m > n else 'rows of vh'} are not unique, so they have no derivative; "
            f"pass full_matrices=False.")


def reduced(ans, k):
    """``(u, s, vh)`` cut to the ``k`` singular triplets (drops full_matrices' extra vectors)."""
    return ans[0][..., :k], ans[1], ans[2][..., :k, :]


def svd_vjp(g, ans, a, full_matrices=True, compute_uv=True, hermitian=False):
    if not compute_uv:
        check_svd(a, False, hermitian, False)
        u, _, vh = np.linalg.svd(a, full_matrices=False)
        return np.matmul(conj(u) * np.expand_dims(np.real(g) if np.iscomplexobj(g) else g, -2), conj(vh))
    gu, gs, gvh = items_like(g, ans)
    k = shape_of(ans[1])[-1]
    check_svd(a, full_matrices, hermitian, any_nonzero(gu) or any_nonzero(gvh))
    u, s, vh = reduced(ans, k)
    return svd_grad(gu[..., :k], gs, gvh[..., :k, :], u, s, vh)


def svd_jvp(t, ans, a, full_matrices=True, compute_uv=True, hermitian=False):
    if not compute_uv:
        check_svd(a, False, hermitian, False)
        u, _, vh = np.linalg.svd(a, full_matrices=False)
        return svdvals_tangent(t, u, vh)
    check_svd(a, full_matrices, hermitian, True)
    return svd_tangent(t, ans[0], ans[1], ans[2])


@primitive
def svd_packed(a):
    """``u, s, vh = np.linalg.svd(a, full_matrices=False)`` as one array: rows are u, s, vh^T."""
    u, s, vh = np.linalg.svd(a, full_matrices=False)
    return np.concatenate([u, np.expand_dims(s, -2), T(vh)], axis=-2)


def unpack_svd(p, m):
    s = p[..., m, :]
    return p[..., :m, :], real_part(s) if np.iscomplexobj(s) else s, T(p[..., m + 1:, :])   # (packed as complex)


def svd_packed_vjp(g, ans, a):
    m = shape_of(a)[-2]
    gu, gs, gvh = unpack_svd(g, m)
    u, s, vh = unpack_svd(ans, m)
    return svd_grad(gu, gs, gvh, u, s, vh)


def svd_packed_jvp(t, ans, a):
    u, s, vh = unpack_svd(ans, shape_of(a)[-2])
    du, ds, dvh = svd_tangent(t, u, s, vh)
    return np.concatenate([du, np.expand_dims(ds, -2), T(dvh)], axis=-2)


@primitive
def svd_values(a):
    """``np.linalg.svd(a, compute_uv=False)`` (the tape's op for singular values alone)."""
    return np.linalg.svd(a, compute_uv=False)


def svd_values_vjp(g, ans, a):
    return svd_vjp(g, ans, a, compute_uv=False)


def svd_values_jvp(t, ans, a):
    return svd_jvp(t, ans, a, compute_uv=False)


@primitive
def svd_full_vectors(a, which):
    """The full (m x m) u or (n x n) vh of a non-square matrix: values without a derivative."""
    return np.linalg.svd(a, full_matrices=True)[which]


def svd_full_vectors_vjp(g, ans, a, which):
    check_svd(a, True, False, True)


SVDResult = type(np.linalg.svd(np.eye(1)))


def svd_on_tensors(a, full_matrices=True, compute_uv=True, hermitian=False):
    check_svd(a, False, hermitian, False)
    if not compute_uv:
        return svd_values(a)
    m, n = shape_of(a)[-2], shape_of(a)[-1]
    if full_matrices and m != n:
        return SVDResult(svd_full_vectors(a, 0), svd_values(a), svd_full_vectors(a, 2))
    return SVDResult(*unpack_svd(svd_packed(a), m))


define(np.linalg.svd, vjp=(svd_vjp,), jvp=(svd_jvp,))
define(svd_packed, vjp=(svd_packed_vjp,), jvp=(svd_packed_jvp,))
define(svd_values, vjp=(svd_values_vjp,), jvp=(svd_values_jvp,))
define(np.linalg.svdvals, vjp=(svd_values_vjp,), jvp=(svd_values_jvp,))   # numpy 2's name for the same
define(svd_full_vectors, vjp=(svd_full_vectors_vjp, None), jvp=(svd_full_vectors_vjp, None))
COMPOSITES[np.linalg.svd] = svd_on_tensors


# --- qr (reduced, m >= n): A = Q R -----------------------------------------------------------------
# VJP (Seeger et al. / TensorFlow): M = R gR^T - gQ^T Q,  gA = (gQ + Q copyltu(M)) R^-T.
# JVP: C = Q^T dA R^-1, Omega = the antisymmetric part of C below the diagonal, dR = (C - Omega) R,
#      dQ = dA R^-1 - Q (C - Omega).

def check_qr(a, mode):
    refuse_complex(a, "np.linalg.qr")
    m, n = shape_of(a)[-2], shape_of(a)[-1]
    if mode == "raw" or (mode == "complete" and m != n) or m < n:
        raise NotImplementedError(
            f"np.linalg.qr(mode={mode!r}) of a {m}x{n} matrix is not differentiated: only the reduced "
            f"(and 'r') factorisation of a square or tall matrix (m >= n) is; for a wide matrix "
            f"factor its transpose, and use mode='reduced' rather than 'complete' or 'raw'.")


def qr_grad(gq, gr, q, r):
    mm = np.matmul(r, T(gr)) - np.matmul(T(gq), q)
    b = gq + np.matmul(q, copyltu(mm))
    return T(np.linalg.solve(r, T(b)))


def qr_tangent(t, q, r):
    x = T(np.linalg.solve(T(r), T(t)))           # t R^-1
    c = np.matmul(T(q), x)
    _, strict = triangle_masks(shape_of(c)[-1], "L", dtype_of(c))
    upper = c - (c * strict - T(c * strict))
    return x - np.matmul(q, upper), np.matmul(upper, r)


def qr_vjp(g, ans, a, mode="reduced"):
    check_qr(a, mode)
    if mode == "r":
        q = np.linalg.qr(a)[0]
        return qr_grad(np.zeros_like(q), g, q, ans)
    gq, gr = items_like(g, ans)
    return qr_grad(gq, gr, ans[0], ans[1])


def qr_jvp(t, ans, a, mode="reduced"):
    check_qr(a, mode)
    if mode == "r":
        return qr_tangent(t, np.linalg.qr(a)[0], ans)[1]
    return qr_tangent(t, ans[0], ans[1])


@primitive
def qr_packed(a):
    """``q, r = np.linalg.qr(a)`` (m >= n) as one array: rows are q, then r^T."""
    q, r = np.linalg.qr(a)
    return np.concatenate([q, T(r)], axis=-2)


def qr_packed_vjp(g, ans, a):
    check_qr(a, "reduced")
    m = shape_of(a)[-2]
    return qr_grad(g[..., :m, :], T(g[..., m:, :]), ans[..., :m, :], T(ans[..., m:, :]))


def qr_packed_jvp(t, ans, a):
    check_qr(a, "reduced")
    m = shape_of(a)[-2]
    dq, dr = qr_tangent(t, ans[..., :m, :], T(ans[..., m:, :]))
    return np.concatenate([dq, T(dr)], axis=-2)


QRResult = type(np.linalg.qr(np.eye(1)))


def qr_on_tensors(a, mode="reduced"):
    m, n = shape_of(a)[-2], shape_of(a)[-1]
    if m < n or mode not in ("reduced", "r", "complete") or (mode == "complete" and m != n):
        check_qr(a, mode)                 # a refusal now rather than a constant result
    p = qr_packed(a)
    r = T(p[..., m:, :])
    return r if mode == "r" else QRResult(p[..., :m, :], r)


define(np.linalg.qr, vjp=(qr_vjp,), jvp=(qr_jvp,))
define(qr_packed, vjp=(qr_packed_vjp,), jvp=(qr_packed_jvp,))
COMPOSITES[np.linalg.qr] = qr_on_tensors
