"""``runtime.scipy.linalg``: scipy.linalg on tensors.

``inv``, ``det``, ``solve``, ``solve_triangular``, ``solve_banded``, ``cholesky``, ``cho_solve``,
``lu_solve``, ``expm``, ``logm``, ``sqrtm``, ``solve_sylvester`` and ``block_diag`` are primitives
wrapping scipy's (one recorded op each; rules in ``runtime/rules/scipy_linalg/``).  ``cho_factor``,
``lu_factor``, ``eigh`` and ``svd`` return several values, so each records single-output
primitives and returns scipy's tuple of them.  Any other name is scipy's own function, which
refuses tensors that a tape records.
"""

import scipy.linalg as _scipy_linalg

from ..rules import scipy_linalg as _rules
from ..rules.linalg.matrix import T as _T
from ..rules.support import shape_of as _shape_of
from ..rules.scipy_linalg import (  # noqa: F401
    block_diag, cho_solve, cholesky, det, expm, inv, logm, lu_solve, solve, solve_banded, solve_sylvester,
    solve_triangular, sqrtm)


def cho_factor(a, lower=False, overwrite_a=False, check_finite=True):
    """``scipy.linalg.cho_factor``: ``(c, lower)``, the Cholesky factor in c's ``lower`` triangle."""
    return _rules.cho_factor_matrix(a, lower), lower


def lu_factor(a, overwrite_a=False, check_finite=True):
    """``scipy.linalg.lu_factor``: ``(lu, piv)`` with P^T a = L U packed in ``lu``; ``piv`` holds
    LAPACK's pivot indices (integers, no gradient)."""
    return _rules.unpack_lu(_rules.lu_packed(a))


def eigh(a, b=None, *, lower=True, eigvals_only=False, overwrite_a=False, overwrite_b=False, type=1,
         check_finite=True, subset_by_index=None, subset_by_value=None, driver=None):
    """``scipy.linalg.eigh`` of one symmetric matrix (reading its ``lower`` triangle): ``(w, v)``, or
    ``w`` with ``eigvals_only=True``.  The generalized problem and subsets are refused."""
    uplo = _rules.eigh_uplo(b, lower, overwrite_a, overwrite_b, subset_by_index, subset_by_value)
    if eigvals_only:
        return _rules.eigvalsh(a, uplo)
    p = _rules.eigh_packed(a, uplo)
    return p[..., 0, :], p[..., 1:, :]


def svd(a, full_matrices=True, compute_uv=True, overwrite_a=False, check_finite=True, lapack_driver="gesdd"):
    """``scipy.linalg.svd``: ``(u, s, vh)``, or ``s`` with ``compute_uv=False``.  The extra vectors
    of a non-square matrix's ``full_matrices=True`` factors have no derivative (a gradient reaching
    them is refused: pass ``full_matrices=False``)."""
    _rules.kept("scipy.linalg.svd", overwrite_a=overwrite_a)
    if not compute_uv:
        return _rules.svd_values(a, lapack_driver)
    m, n = _shape_of(a)[-2], _shape_of(a)[-1]
    if full_matrices and m != n:
        return (_rules.svd_full_vectors(a, 0, lapack_driver), _rules.svd_values(a, lapack_driver),
                _rules.svd_full_vectors(a, 2, lapack_driver))
    p = _rules.svd_packed(a, lapack_driver)
    return p[..., :m, :], p[..., m, :], _T(p[..., m + 1:, :])


def __getattr__(name):
    return getattr(_scipy_linalg, name)


def __dir__():
    return sorted(set(globals()) | set(dir(_scipy_linalg)))
