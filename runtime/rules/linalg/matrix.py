"""The matrix helpers every linalg rule shares: the batched transpose ``T``, scalars shaped to
broadcast against matrices, triangle masks, and the checks that refuse what the rules do not model
(repeated eigenvalues, complex input).  ``T`` and ``as_matrix_scalar`` are primitives, so gradients
the transpiler writes with them can be differentiated again."""

import numpy as np

from ..forms import reshaping, symmetric
from ..registry import primitive
from ..reductions import conj_if_complex as conj  # noqa: F401  (conj(x): no copy of a real x)
from ..support import dtype_of, shape_of, value_of


@primitive
def T(x):
    """Swap the last two axes (matrix transpose over a batch).  A primitive, so gradients the
    transpiler generates with it can be differentiated again."""
    return np.swapaxes(x, -1, -2)


@symmetric(T)
def T_vjp(g, ans, x):
    return T(g)


@primitive
def as_matrix_scalar(g):
    """A batch of scalars ``g`` shaped [..., 1, 1] so it broadcasts against matrices."""
    return np.expand_dims(np.expand_dims(g, -1), -1)


reshaping(as_matrix_scalar, "x")


def any_nonzero(g):
    """Whether a cotangent carries anything (a result the caller never read gets zeros)."""
    return bool(np.any(value_of(g) != 0))


def eye_like(n, x):
    return np.eye(n, dtype=dtype_of(x))


def as_diag(d):
    """A (batch of) diagonal matrices with ``d`` on the diagonal."""
    n = shape_of(d)[-1]
    return np.expand_dims(d, -2) * eye_like(n, d)


def triangle_masks(n, UPLO, dtype):
    """(the triangle numpy reads including the diagonal, the same triangle without it): constants."""
    lower = np.tril(np.ones((n, n)))
    if UPLO.upper() == "U":
        lower = lower.T
    return lower.astype(dtype), (lower - np.eye(n)).astype(dtype)


def from_triangle(s, UPLO):
    """Gradient w.r.t. a matrix that numpy reads through one triangle only (eigh, eigvalsh):
    ``s`` is the gradient w.r.t. the symmetric (complex: Hermitian) matrix that triangle stands for."""
    full, strict = triangle_masks(shape_of(s)[-1], UPLO, dtype_of(s))
    if not np.iscomplexobj(s):
        return s * full + T(s) * strict
    return (s + np.conj(T(s))) * strict + np.real(s) * (full - strict)


def to_symmetric(t, UPLO):
    """The symmetric matrix that the ``UPLO`` triangle of ``t`` stands for; for a complex ``t`` the
    Hermitian one (LAPACK reads the real part of the diagonal)."""
    full, strict = triangle_masks(shape_of(t)[-1], UPLO, dtype_of(t))
    if not np.iscomplexobj(t):
        return t * full + T(t * strict)
    return t * strict + np.conj(T(t * strict)) + np.real(t) * (full - strict)


def H(x):
    """The conjugate transpose over a batch (the transpose of a real x)."""
    return np.conj(T(x)) if np.iscomplexobj(x) else T(x)




def copyltu(m):
    """The symmetric matrix whose lower triangle is ``m``'s."""
    n = shape_of(m)[-1]
    _, strict = triangle_masks(n, "L", dtype_of(m))
    return m * strict + T(m * strict) + m * eye_like(n, m)


def check_distinct(w, what, thing="eigenvalues"):
    """Raise where two of ``w`` are equal: the vectors are not unique there, so they have no derivative."""
    v = value_of(w)
    if v.shape[-1] < 2 or v.size == 0:
        return
    scale = max(float(np.max(np.abs(v))), float(np.finfo(v.dtype).tiny))
    n = v.shape[-1]
    gaps = np.abs(v[..., :, None] - v[..., None, :]) + np.where(np.eye(n, dtype=bool), np.inf, 0.0)
    if float(np.min(gaps)) <= 100 * n * np.finfo(v.dtype).eps * scale:
        i = np.unravel_index(np.argmin(gaps), gaps.shape)
        raise np.linalg.LinAlgError(
            f"{what}: the derivative of the vectors is undefined because two {thing} are equal "
            f"({v[i[:-1]]!r} and {v[i[:-2] + (i[-1],)]!r}): the vectors are not unique there. Differentiate "
            f"only the {thing} (np.linalg.eigvalsh, np.linalg.svd(a, compute_uv=False)) or a quantity "
            f"that does not depend on the choice of vectors.")


def inverse_gaps(w, what, thing="eigenvalues"):
    """F[..., i, j] = 1 / (w_j - w_i) off the diagonal and 0 on it (raises where two w are equal)."""
    check_distinct(w, what, thing)
    n = shape_of(w)[-1]
    eye = eye_like(n, w)
    return (1 - eye) / (np.expand_dims(w, -2) - np.expand_dims(w, -1) + eye)


def refuse_complex(x, what):
    """The rules here are for real matrices (a complex one needs conjugate transposes)."""
    if np.iscomplexobj(value_of(x)):
        hint = " (for a vector norm, np.linalg.norm(np.abs(z)) is the same value)" if "norm" in what else ""
        raise NotImplementedError(f"{what}: the derivative for complex input is not supported; write the "
                                  f"computation with real arrays{hint}")
