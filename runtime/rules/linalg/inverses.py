"""Rules for inverses and linear solves: ``inv``, ``det``, ``slogdet``, ``solve``, ``pinv``, ``lstsq``,
``matrix_power``.  They reuse the inverse or the solution the forward computed."""

import numpy as np

from ..registry import COMPOSITES, define, nondifferentiable, primitive
from ..support import items_like, shape_of, unbroadcast
from .matrix import (
    T, any_nonzero, as_matrix_scalar, eye_like, from_triangle, refuse_complex, to_symmetric, value_of)


# --- inverse: d(A^-1) = -A^-1 dA A^-1 ----------------------------------------------------

def inv_vjp(g, ans, a):
    return -np.matmul(np.matmul(T(ans), g), T(ans))


def inv_jvp(t, ans, a):
    return -np.matmul(np.matmul(ans, t), ans)


define(np.linalg.inv, vjp=(inv_vjp,), jvp=(inv_jvp,))


# --- determinant: d det(A) = det(A) tr(A^-1 dA) --------------------------------------------

def det_vjp(g, ans, a):
    return as_matrix_scalar(g * ans) * T(np.linalg.inv(a))


def det_jvp(t, ans, a):
    return ans * np.trace(np.linalg.solve(a, t), axis1=-2, axis2=-1)


define(np.linalg.det, vjp=(det_vjp,), jvp=(det_jvp,))


# --- solve: x = A^-1 b;  b-bar = A^-T g,  A-bar = -b-bar x^T ---------------------------------

def solve_vjp_a(g, ans, a, b):
    if np.ndim(b) == 1:     # a vector right-hand side (numpy >= 2: only a 1-d b is one)
        gb = np.linalg.solve(T(a), np.expand_dims(g, -1))
        return unbroadcast(-np.matmul(gb, np.expand_dims(ans, -2)), a)
    return unbroadcast(-np.matmul(np.linalg.solve(T(a), g), T(ans)), a)


def solve_vjp_b(g, ans, a, b):
    if np.ndim(b) == 1:
        return unbroadcast(np.linalg.solve(T(a), np.expand_dims(g, -1))[..., 0], b)
    return unbroadcast(np.linalg.solve(T(a), g), b)


def solve_jvp_a(t, ans, a, b):
    if np.ndim(b) == 1:
        return -np.linalg.solve(a, np.matmul(t, np.expand_dims(ans, -1)))[..., 0]
    return -np.linalg.solve(a, np.matmul(t, ans))


def solve_jvp_b(t, ans, a, b):
    return np.linalg.solve(a, t)


define(np.linalg.solve, vjp=(solve_vjp_a, solve_vjp_b), jvp=(solve_jvp_a, solve_jvp_b))


# --- slogdet: (sign, log|det A|);  d log|det A| = tr(A^-1 dA), the sign is piecewise constant -----

def logabsdet_grad(g, a):
    refuse_complex(a, "np.linalg.slogdet")
    return as_matrix_scalar(g) * T(np.linalg.inv(a))


def logabsdet_tangent(t, a):
    refuse_complex(a, "np.linalg.slogdet")
    return np.trace(np.linalg.solve(a, t), axis1=-2, axis2=-1)


def slogdet_vjp(g, ans, a):
    return logabsdet_grad(items_like(g, ans)[1], a)


def slogdet_jvp(t, ans, a):
    return (np.zeros_like(ans[0]), logabsdet_tangent(t, a))


@primitive
def logabsdet(a):
    """``np.linalg.slogdet(a)[1]`` as one array (what the tape records for slogdet)."""
    return np.linalg.slogdet(a)[1]


@primitive
def slogdet_sign(a):
    return np.linalg.slogdet(a)[0]


def logabsdet_vjp(g, ans, a):
    return logabsdet_grad(g, a)


def logabsdet_jvp(t, ans, a):
    return logabsdet_tangent(t, a)


SlogdetResult = type(np.linalg.slogdet(np.eye(1)))


def slogdet_on_tensors(a):
    return SlogdetResult(slogdet_sign(a), logabsdet(a))


define(np.linalg.slogdet, vjp=(slogdet_vjp,), jvp=(slogdet_jvp,))
nondifferentiable(slogdet_sign)
define(logabsdet, vjp=(logabsdet_vjp,), jvp=(logabsdet_jvp,))
COMPOSITES[np.linalg.slogdet] = slogdet_on_tensors


# --- pinv: dX = -X dA X + X X^T dA^T (I - A X) + (I - X A) dA^T X^T X  (X = A+, rank constant) ------

def pinv_grad(g, x, a):
    """The gradient through ``x = pinv(a)`` of a full-rank (locally constant rank) ``a``."""
    m, n = shape_of(a)[-2], shape_of(a)[-1]
    xt = T(x)
    out = -np.matmul(np.matmul(xt, g), xt)
    out = out + np.matmul(np.matmul(eye_like(m, a) - np.matmul(a, x), T(g)), np.matmul(x, xt))
    return out + np.matmul(np.matmul(xt, x), np.matmul(T(g), eye_like(n, a) - np.matmul(x, a)))


def pinv_tangent(t, x, a):
    m, n = shape_of(a)[-2], shape_of(a)[-1]
    out = -np.matmul(np.matmul(x, t), x)
    out = out + np.matmul(np.matmul(x, T(x)), np.matmul(T(t), eye_like(m, a) - np.matmul(a, x)))
    return out + np.matmul(np.matmul(eye_like(n, a) - np.matmul(x, a), T(t)), np.matmul(T(x), x))


def pinv_vjp(g, ans, a, rcond=None, hermitian=False, **kwargs):
    refuse_complex(a, "np.linalg.pinv")
    if hermitian:   # numpy reads the lower triangle only (through eigh)
        return from_triangle(pinv_grad(g, ans, to_symmetric(a, "L")), "L")
    return pinv_grad(g, ans, a)


def pinv_jvp(t, ans, a, rcond=None, hermitian=False, **kwargs):
    refuse_complex(a, "np.linalg.pinv")
    if hermitian:
        return pinv_tangent(to_symmetric(t, "L"), ans, to_symmetric(a, "L"))
    return pinv_tangent(t, ans, a)


define(np.linalg.pinv, vjp=(pinv_vjp,), jvp=(pinv_jvp,))


# --- lstsq: (x, residuals, rank, s) with x = pinv(a) b -------------------------------------------

def check_lstsq(a, b, s=None):
    """Refuse complex and rank-deficient matrices; ``s``: a's singular values if lstsq returned them
    (else they are computed: one more SVD)."""
    refuse_complex(a, "np.linalg.lstsq")
    refuse_complex(b, "np.linalg.lstsq")
    m, n = shape_of(a)
    if np.ndim(value_of(b)) == 2 and shape_of(b)[1] == 0:
        return
    s = np.linalg.svd(value_of(a), compute_uv=False) if s is None else value_of(s)
    rank = int(np.sum(s > np.max(s, initial=0.0) * max(m, n) * np.finfo(s.dtype).eps))   # matrix_rank's tol
    if rank < min(m, n):
        raise np.linalg.LinAlgError(
            "np.linalg.lstsq: the gradient needs a matrix of full rank (its solution jumps where the "
            f"rank changes); this {m}x{n} matrix has rank {rank}")


# x = pinv(a) b: pinv's gradient (pinv_grad) applied to the rank-k cotangent gx b^T, multiplied out
# so that no m x m matrix is formed (O(m n k) instead of O(m^2 n)); r = b - a x.
def solution_grad(gx2, x2, r, pa, a):
    xt = T(pa)
    ga = -np.matmul(np.matmul(xt, gx2), T(x2))
    ga = ga + np.matmul(r, T(np.matmul(pa, np.matmul(xt, gx2))))
    return ga + np.matmul(np.matmul(xt, x2), T(gx2) - np.matmul(np.matmul(T(gx2), pa), a))


def solution_tangent(ta, x2, r, pa, a):
    """pinv_tangent(ta, pa, a) b, multiplied out the same way."""
    w = np.matmul(T(ta), np.matmul(T(pa), x2))
    dx = np.matmul(pa, np.matmul(T(pa), np.matmul(T(ta), r)) - np.matmul(ta, x2)) + w
    return dx - np.matmul(pa, np.matmul(a, w))


def lstsq_grads(gx, gres, gs, x, res, a, b, s=None):
    """(d a, d b) of ``x, res, rank, s = np.linalg.lstsq(a, b)`` given the cotangents."""
    check_lstsq(a, b, s)
    if any_nonzero(gs):         # s's cotangent needs the singular vectors: pinv from the same SVD
        u, sv, vh = np.linalg.svd(a, full_matrices=False)
        pa = np.matmul(T(vh) / np.expand_dims(sv, -2), T(u))
    else:
        pa = np.linalg.pinv(a)
    b2 = np.expand_dims(b, -1) if np.ndim(b) == 1 else b
    gx2 = np.expand_dims(gx, -1) if np.ndim(b) == 1 else gx
    x2 = np.expand_dims(x, -1) if np.ndim(b) == 1 else x
    ga = solution_grad(gx2, x2, b2 - np.matmul(a, x2), pa, a)
    gb = np.matmul(T(pa), gx2)
    if shape_of(res)[0] > 0 and any_nonzero(gres):   # ||b - a x||^2: d = -2 r^T (da x - db)
        r = (b2 - np.matmul(a, x2)) * gres
        ga = ga - 2 * np.matmul(r, T(x2))
        gb = gb + 2 * r
    if any_nonzero(gs):
        ga = ga + np.matmul(u * np.expand_dims(gs, -2), vh)
    return ga, (np.reshape(gb, shape_of(b)) if np.ndim(b) == 1 else gb)


def lstsq_vjp_a(g, ans, a, b, rcond=None):
    gx, gres, _, gs = items_like(g, ans)
    return lstsq_grads(gx, gres, gs, ans[0], ans[1], a, b, ans[3])[0]


def lstsq_vjp_b(g, ans, a, b, rcond=None):
    gx, gres, _, gs = items_like(g, ans)
    return lstsq_grads(gx, gres, gs, ans[0], ans[1], a, b, ans[3])[1]


def lstsq_tangents(ta, tb, ans, a, b):
    """Tangents of (x, residuals, rank, s) along (ta, tb) (either may be None)."""
    x, res, rank, s = ans
    check_lstsq(a, b, s)
    if ta is not None:          # s's tangent needs the singular vectors: pinv from the same SVD
        u, sv, vh = np.linalg.svd(a, full_matrices=False)
        pa = np.matmul(T(vh) / np.expand_dims(sv, -2), T(u))
    else:
        pa = np.linalg.pinv(a)
    vec = np.ndim(b) == 1
    x2 = np.expand_dims(x, -1) if vec else x
    dx = 0
    dres = np.zeros_like(res)
    ds = np.zeros_like(s)
    r = np.expand_dims(b, -1) - np.matmul(a, x2) if vec else b - np.matmul(a, x2)
    if ta is not None:
        dx = dx + solution_tangent(ta, x2, r, pa, a)
        dres = dres - 2 * np.sum(r * np.matmul(ta, x2), axis=0) if shape_of(res)[0] > 0 else dres
        ds = np.sum(np.matmul(T(u), ta) * vh, axis=-1)
    if tb is not None:
        dx = dx + np.matmul(pa, np.expand_dims(tb, -1) if vec else tb)
        dres = dres + 2 * np.sum(r * (np.expand_dims(tb, -1) if vec else tb), axis=0) \
            if shape_of(res)[0] > 0 else dres
    return (np.reshape(dx, shape_of(x)), dres, np.zeros_like(rank), ds)


# Each returns a tuple literal: forward mode adds a and b's tuple terms item by item only when it
# sees their items (`+` on two tuples would concatenate them and drop b's term).
def lstsq_jvp_a(t, ans, a, b, rcond=None):
    d = lstsq_tangents(t, None, ans, a, b)
    return (d[0], d[1], d[2], d[3])


def lstsq_jvp_b(t, ans, a, b, rcond=None):
    d = lstsq_tangents(None, t, ans, a, b)
    return (d[0], d[1], d[2], d[3])


@primitive
def lstsq_solution(a, b, rcond=None):
    """``np.linalg.lstsq(a, b, rcond)[0]`` (what the tape records for lstsq's solution)."""
    return np.linalg.lstsq(a, b, rcond=rcond)[0]


def lstsq_solution_vjp_a(g, ans, a, b, rcond=None):
    return lstsq_grads(g, 0, 0, ans, np.zeros(0), a, b)[0]


def lstsq_solution_vjp_b(g, ans, a, b, rcond=None):
    return lstsq_grads(g, 0, 0, ans, np.zeros(0), a, b)[1]


def lstsq_solution_jvp_a(t, ans, a, b, rcond=None):
    check_lstsq(a, b)
    b2 = np.expand_dims(b, -1) if np.ndim(b) == 1 else b
    x2 = np.expand_dims(ans, -1) if np.ndim(b) == 1 else ans
    return np.reshape(solution_tangent(t, x2, b2 - np.matmul(a, x2), np.linalg.pinv(a), a), shape_of(ans))


def lstsq_solution_jvp_b(t, ans, a, b, rcond=None):
    check_lstsq(a, b)
    return np.matmul(np.linalg.pinv(a), t)


def lstsq_on_tensors(a, b, rcond=None):
    """x by one recorded op, residuals and singular values by recorded compositions."""
    x = lstsq_solution(a, b, rcond)
    _, res, rank, _ = np.linalg.lstsq(value_of(a), value_of(b), rcond=rcond)
    if shape_of(res)[0] > 0:
        r = b - np.matmul(a, x)
        res = np.sum(r * r, axis=0, keepdims=np.ndim(value_of(b)) == 1)
    return x, res, rank, np.linalg.svd(a, compute_uv=False)


define(np.linalg.lstsq, vjp=(lstsq_vjp_a, lstsq_vjp_b), jvp=(lstsq_jvp_a, lstsq_jvp_b))
define(lstsq_solution, vjp=(lstsq_solution_vjp_a, lstsq_solution_vjp_b),
       jvp=(lstsq_solution_jvp_a, lstsq_solution_jvp_b))
COMPOSITES[np.linalg.lstsq] = lstsq_on_tensors


# --- matrix_power: d(A^n) = sum_k A^k dA A^(n-1-k);  A^-n = (A^-1)^n --------------------------------

def powers(a, n):
    """[I, A, A^2, ..., A^(n-1)] (n >= 1)."""
    out = [np.zeros_like(a) + eye_like(shape_of(a)[-1], a)]
    for _ in range(n - 1):
        out.append(np.matmul(out[-1], a))
    return out


def power_terms(x, a, n):
    """sum_k A^k X A^(n-1-k): the derivative of A^n along X (n >= 1).  With A^T in place of A it
    is the adjoint, since (A^k)^T = (A^T)^k."""
    p = powers(a, n)
    total = 0
    for k in range(n):
        total = total + np.matmul(np.matmul(p[k], x), p[n - 1 - k])
    return total


def matrix_power_linear(x, a, n, adjoint):
    """The derivative of A^n applied to ``x`` (the JVP), or its transpose (``adjoint``: the VJP)."""
    if n == 0:
        return np.zeros_like(x)
    if n > 0:
        return power_terms(x, T(a) if adjoint else a, n)
    b = np.linalg.inv(a)
    if adjoint:
        return inv_vjp(power_terms(x, T(b), -n), b, a)
    return power_terms(inv_jvp(x, b, a), b, -n)


def matrix_power_vjp(g, ans, a, n):
    return matrix_power_linear(g, a, n, True)


def matrix_power_jvp(t, ans, a, n):
    return matrix_power_linear(t, a, n, False)


define(np.linalg.matrix_power, vjp=(matrix_power_vjp, None), jvp=(matrix_power_jvp, None))
