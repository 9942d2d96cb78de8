"""Rules for scipy.linalg's factorizations and the solves that use them: ``cholesky``, ``cho_factor``
/ ``cho_solve``, ``lu_factor`` / ``lu_solve``.

scipy's Cholesky reads one triangle of ``a`` (``lower=``), so its gradient lands in that triangle:
numpy's rule (linalg/decompositions.py, the gradient w.r.t. the symmetric matrix) mapped back
with ``from_triangle``, as numpy's eigh does; upper factors are transposes of lower ones.
``cho_factor``'s ``c`` holds the factor in that triangle and, in the other, ``a``'s entries as
given (scipy < 1.18) or zeros (scipy 1.18).  ``lu_factor``'s ``lu`` packs L (unit lower, below the diagonal) and U (upper) of
P^T A = L U; with F = L^-1 P^T dA U^-1, dL = L (F below the diagonal) and dU = (F on and above
it) U.  Complex matrices: the Cholesky rules refuse them as numpy's do; the LU rules accept them.
"""

import numpy as np
import scipy.linalg as _sl

from ..linalg.decompositions import cholesky_jvp as np_cholesky_jvp
from ..linalg.decompositions import cholesky_vjp as np_cholesky_vjp
from ..linalg.matrix import T, any_nonzero, from_triangle, refuse_complex, to_symmetric, triangle_masks, value_of
from ..forms import jvp_like
from ..registry import define, primitive
from ..support import dtype_of, items_like, shape_of
from .solves import solve_triangular
from .structure import columns, kept, like, nested_primitive


def uplo(lower):
    return "L" if lower else "U"


# --- cholesky(a, lower): L (a's lower triangle read) or U = L^T (the upper one read) ------------------

@primitive
def cholesky(a, lower=False, overwrite_a=False, check_finite=True):
    return _sl.cholesky(a, lower=lower, check_finite=check_finite)


def factor_grad(g, factor, a, lower):
    """The gradient w.r.t. ``a`` through the Cholesky factor ``factor`` (lower: L, else U = L^T)
    given its cotangent ``g``."""
    refuse_complex(a, "scipy.linalg.cholesky")
    if lower:
        return from_triangle(np_cholesky_vjp(g, factor, a), "L")
    return from_triangle(np_cholesky_vjp(T(g), T(factor), a), "U")


def factor_tangent(t, factor, a, lower):
    refuse_complex(a, "scipy.linalg.cholesky")
    if lower:
        return np_cholesky_jvp(to_symmetric(t, "L"), factor, a)
    return T(np_cholesky_jvp(to_symmetric(t, "U"), T(factor), a))


def cholesky_vjp(g, ans, a, lower=False, overwrite_a=False, check_finite=True):
    kept("scipy.linalg.cholesky", overwrite_a=overwrite_a)
    return factor_grad(g, ans, a, lower)


def cholesky_jvp(t, ans, a, lower=False, overwrite_a=False, check_finite=True):
    kept("scipy.linalg.cholesky", overwrite_a=overwrite_a)
    return factor_tangent(t, ans, a, lower)


define((_sl.cholesky, cholesky), vjp=(cholesky_vjp,), jvp=(cholesky_jvp,))


# --- cho_factor(a, lower) -> (c, lower): the factor in one triangle, a's other strict triangle as given --

@primitive
def cho_factor_matrix(a, lower=False):
    """``cho_factor(a, lower)[0]`` (what the tape records; runtime.scipy.linalg.cho_factor pairs it
    with ``lower``)."""
    return _sl.cho_factor(a, lower=lower)[0]


def parts(c, lower):
    """(the factor's triangle, the other strict triangle) of ``cho_factor``'s ``c``: constant masks."""
    full, strict = triangle_masks(shape_of(c)[-1], uplo(lower), dtype_of(c))
    return full, T(strict)


_FILLS = []


def fill():
    """What this scipy leaves in c's other triangle: "copied" (a's entries, scipy < 1.18) or "zeros".
    Found once, on a small matrix; each derivative also checks its own c agrees."""
    if not _FILLS:
        c = _sl.cho_factor(np.array([[2.0, 0.5], [0.7, 2.0]]))[0]
        _FILLS.append("copied" if c[1, 0] == 0.7 else "zeros" if c[1, 0] == 0 else "other")
    return _FILLS[0]


def other_derivative(c, a, other, what):
    """Whether c's other triangle moves with a's (True: it holds a's entries; False: zeros); a
    refusal where c holds neither."""
    kind = fill()
    values, given = value_of(c) * other, value_of(a) * other
    if kind == "copied" and np.array_equal(values, given):
        return True
    if kind == "zeros" and not np.any(values):
        return False
    raise ValueError(f"scipy.linalg.cho_factor: the triangle of c outside the factor holds neither a's entries "
                     f"nor zeros here, so its {what} is unknown; read only the factor (np.tril(c) with "
                     f"lower=True, np.triu(c) otherwise) or use scipy.linalg.cholesky")


def cho_factor_grad(gc, c, a, lower):
    full, other = parts(c, lower)
    grad = factor_grad(gc * full, c * full, a, lower)
    if any_nonzero(gc * other) and other_derivative(c, a, other, "gradient"):
        grad = grad + gc * other
    return grad


def cho_factor_tangent(t, c, a, lower):
    full, other = parts(c, lower)
    tangent = factor_tangent(t, c * full, a, lower)
    return tangent + t * other if other_derivative(c, a, other, "tangent") else tangent


def cho_factor_vjp(g, ans, a, lower=False, overwrite_a=False, check_finite=True):
    kept("scipy.linalg.cho_factor", overwrite_a=overwrite_a)
    return cho_factor_grad(items_like(g, ans)[0], ans[0], a, lower)


def cho_factor_jvp(t, ans, a, lower=False, overwrite_a=False, check_finite=True):
    kept("scipy.linalg.cho_factor", overwrite_a=overwrite_a)
    return (cho_factor_tangent(t, ans[0], a, lower), 0.0)


def cho_factor_matrix_vjp(g, ans, a, lower=False):
    return cho_factor_grad(g, ans, a, lower)


def cho_factor_matrix_jvp(t, ans, a, lower=False):
    return cho_factor_tangent(t, ans, a, lower)


define(_sl.cho_factor, vjp=(cho_factor_vjp,), jvp=(cho_factor_jvp,))
define(cho_factor_matrix, vjp=(cho_factor_matrix_vjp,), jvp=(cho_factor_matrix_jvp,))


# --- cho_solve((c, lower), b): x = A^-1 b with A = L L^T (or U^T U), the factor read from c's triangle ----
# b-bar = A^-1 g;  A-bar = -b-bar x^T;  L-bar = (A-bar + A-bar^T) L,  U-bar = U (A-bar + A-bar^T).

@nested_primitive
def cho_solve(c_and_lower, b, overwrite_b=False, check_finite=True):
    return _sl.cho_solve(c_and_lower, b, check_finite=check_finite)


def cho_solve_factor_grad(g, x, c, lower, b):
    refuse_complex(c, "scipy.linalg.cho_solve")
    full, _ = parts(c, lower)
    gb = columns(cho_solve((c, lower), g), c)
    ga = -np.matmul(gb, T(columns(x, c)))
    ga = ga + T(ga)
    factor = c * full
    return (np.matmul(ga, factor) if lower else np.matmul(factor, ga)) * full


def cho_solve_factor_tangent(t, x, c, lower):
    refuse_complex(c, "scipy.linalg.cho_solve")
    full, _ = parts(c, lower)
    factor, dfactor = c * full, t * full
    da = np.matmul(dfactor, T(factor)) if lower else np.matmul(T(dfactor), factor)
    x2 = columns(x, c)
    return like(-cho_solve((c, lower), np.matmul(da + T(da), x2)), x)


def cho_solve_vjp_factor(g, ans, c_and_lower, b, overwrite_b=False, check_finite=True):
    kept("scipy.linalg.cho_solve", overwrite_b=overwrite_b)
    c, lower = c_and_lower
    return (cho_solve_factor_grad(g, ans, c, lower, b), 0.0)        # (lower: no gradient)


def cho_solve_vjp_b(g, ans, c_and_lower, b, overwrite_b=False, check_finite=True):
    kept("scipy.linalg.cho_solve", overwrite_b=overwrite_b)
    return cho_solve(c_and_lower, g)


def cho_solve_jvp_factor(t, ans, c_and_lower, b, overwrite_b=False, check_finite=True):
    kept("scipy.linalg.cho_solve", overwrite_b=overwrite_b)
    return cho_solve_factor_tangent(t[0], ans, c_and_lower[0], c_and_lower[1])


define((_sl.cho_solve, cho_solve), vjp=(cho_solve_vjp_factor, cho_solve_vjp_b),
       jvp=(cho_solve_jvp_factor,) + jvp_like(cho_solve_vjp_b))       # (A symmetric: the same map)


# --- lu_factor(a) -> (lu, piv) with P^T A = L U -------------------------------------------------------

def permutation(piv):
    """The row order ``perm`` with P^T A = A[perm], from LAPACK's pivots (row i swapped with piv[i])."""
    piv = np.asarray(value_of(piv)).astype(np.intp)
    perm = np.arange(piv.shape[-1])
    for i, p in enumerate(piv):
        perm[i], perm[p] = perm[p], perm[i]
    return perm


def check_square(a, what):
    m, n = shape_of(a)[-2], shape_of(a)[-1]
    if m != n or len(shape_of(a)) != 2:
        raise NotImplementedError(f"{what} is differentiated for one square matrix; this one has shape "
                                  f"{shape_of(a)}")


def lower_unit(lu):
    """L^-1 y and y^T L^-T helpers read L straight from ``lu`` (unit lower triangle)."""
    return triangle_masks(shape_of(lu)[-1], "L", dtype_of(lu))[1]


def lu_parts(lu):
    """(L, U) of a packed ``lu``."""
    strict = lower_unit(lu)
    n = shape_of(lu)[-1]
    return lu * strict + np.eye(n, dtype=dtype_of(lu)), lu * (1 - strict)


def lu_factor_grad(g, lu, piv):
    """d a from the cotangent ``g`` of the packed ``lu``."""
    check_square(lu, "scipy.linalg.lu_factor")
    strict = lower_unit(lu)
    lo, up = lu_parts(lu)
    gf = np.matmul(T(lo), g * strict) * strict + np.matmul(g * (1 - strict), T(up)) * (1 - strict)
    # P^T a-bar = L^-T F-bar U^-T
    y = solve_triangular(lu, gf, "T", True, True)
    y = T(solve_triangular(lu, T(y), 0, False))
    return y[np.argsort(permutation(piv))]


def lu_factor_tangent(t, lu, piv):
    check_square(lu, "scipy.linalg.lu_factor")
    strict = lower_unit(lu)
    lo, up = lu_parts(lu)
    f = solve_triangular(lu, t[permutation(piv)], 0, True, True)       # L^-1 P^T dA
    f = T(solve_triangular(lu, T(f), "T", False))                       # ... U^-1
    return np.matmul(lo, f * strict) + np.matmul(f * (1 - strict), up)


def lu_factor_vjp(g, ans, a, overwrite_a=False, check_finite=True):
    kept("scipy.linalg.lu_factor", overwrite_a=overwrite_a)
    return lu_factor_grad(items_like(g, ans)[0], ans[0], ans[1])


def lu_factor_jvp(t, ans, a, overwrite_a=False, check_finite=True):
    kept("scipy.linalg.lu_factor", overwrite_a=overwrite_a)
    return (lu_factor_tangent(t, ans[0], ans[1]), np.zeros(shape_of(ans[1])))


@primitive
def lu_packed(a):
    """``lu, piv = scipy.linalg.lu_factor(a)`` as one array: lu's rows, then piv as a row."""
    lu, piv = _sl.lu_factor(a)
    return np.concatenate([lu, piv[None, :].astype(lu.dtype)], axis=0)


def unpack_lu(p):
    """(lu, piv) of ``lu_packed``'s result (piv: plain integers, no gradient)."""
    n = shape_of(p)[-1]
    return p[:n], np.real(value_of(p)[n]).astype(np.intp)


def lu_packed_vjp(g, ans, a):
    lu, piv = unpack_lu(ans)
    return lu_factor_grad(g[:shape_of(a)[0]], lu, piv)


def lu_packed_jvp(t, ans, a):
    lu, piv = unpack_lu(ans)
    return np.concatenate([lu_factor_tangent(t, lu, piv), np.zeros((1, shape_of(a)[1]), dtype=dtype_of(lu))],
                          axis=0)


define(_sl.lu_factor, vjp=(lu_factor_vjp,), jvp=(lu_factor_jvp,))
define(lu_packed, vjp=(lu_packed_vjp,), jvp=(lu_packed_jvp,))


# --- lu_solve((lu, piv), b, trans): x = op(A)^-1 b with A = P L U ----------------------------------------
# A-bar as for a general solve, then onto lu: L-bar = (P^T A-bar U^T) below the diagonal,
# U-bar = (L^T P^T A-bar) on and above it.

@nested_primitive
def lu_solve(lu_and_piv, b, trans=0, overwrite_b=False, check_finite=True):
    return _sl.lu_solve(lu_and_piv, b, trans=trans, check_finite=check_finite)


def solve_op(trans, lu):
    op = {0: "N", 1: "T", 2: "C"}.get(trans)
    if op is None:
        raise ValueError(f"scipy.linalg.lu_solve: trans={trans!r} is not 0, 1 or 2")
    return "T" if op == "C" and not np.iscomplexobj(lu) else op


def lu_solve_cotangent_b(g, lu_and_piv, op):
    if op == "C":
        return np.conj(lu_solve(lu_and_piv, np.conj(g), 0))
    return lu_solve(lu_and_piv, g, 1 if op == "N" else 0)


def lu_solve_factor_grad(g, x, lu_and_piv, op):
    lu, piv = lu_and_piv
    check_square(lu, "scipy.linalg.lu_solve")
    gb, x2 = columns(lu_solve_cotangent_b(g, lu_and_piv, op), lu), columns(x, lu)
    ga = -np.matmul(gb, T(x2)) if op == "N" else -np.matmul(x2, T(gb))
    if op == "C":
        ga = np.conj(ga)
    ga = ga[permutation(piv)]                         # P^T A-bar
    strict = lower_unit(lu)
    lo, up = lu_parts(lu)
    return np.matmul(ga, T(up)) * strict + np.matmul(T(lo), ga) * (1 - strict)


def lu_solve_factor_tangent(t, x, lu_and_piv, trans, op):
    lu, piv = lu_and_piv
    check_square(lu, "scipy.linalg.lu_solve")
    strict = lower_unit(lu)
    lo, up = lu_parts(lu)
    da = (np.matmul(t * strict, up) + np.matmul(lo, t * (1 - strict)))[np.argsort(permutation(piv))]
    if op != "N":
        da = np.conj(T(da)) if op == "C" else T(da)
    return like(-lu_solve(lu_and_piv, np.matmul(da, columns(x, lu)), trans), x)


def lu_solve_vjp_factor(g, ans, lu_and_piv, b, trans=0, overwrite_b=False, check_finite=True):
    kept("scipy.linalg.lu_solve", overwrite_b=overwrite_b)
    return (lu_solve_factor_grad(g, ans, lu_and_piv, solve_op(trans, lu_and_piv[0])),
            np.zeros(shape_of(lu_and_piv[1])))                          # (piv: no gradient)


def lu_solve_vjp_b(g, ans, lu_and_piv, b, trans=0, overwrite_b=False, check_finite=True):
    kept("scipy.linalg.lu_solve", overwrite_b=overwrite_b)
    return lu_solve_cotangent_b(g, lu_and_piv, solve_op(trans, lu_and_piv[0]))


def lu_solve_jvp_factor(t, ans, lu_and_piv, b, trans=0, overwrite_b=False, check_finite=True):
    kept("scipy.linalg.lu_solve", overwrite_b=overwrite_b)
    return lu_solve_factor_tangent(t[0], ans, lu_and_piv, trans, solve_op(trans, lu_and_piv[0]))


def lu_solve_jvp_b(t, ans, lu_and_piv, b, trans=0, overwrite_b=False, check_finite=True):
    kept("scipy.linalg.lu_solve", overwrite_b=overwrite_b)
    return lu_solve(lu_and_piv, t, trans)


define((_sl.lu_solve, lu_solve), vjp=(lu_solve_vjp_factor, lu_solve_vjp_b),
       jvp=(lu_solve_jvp_factor, lu_solve_jvp_b))
