"""Rules for ``scipy.linalg.eigh`` and ``svd``: the same math as numpy's, so numpy's rules
(linalg/eigen.py, linalg/decompositions.py) with scipy's parameters.  On tensors each runs as a
packed primitive computed by scipy (its vectors' signs are scipy's) that shares numpy's packed
rules.  Refused, as clear errors: eigh's generalized problem (``b=``) and subsets
(``subset_by_index=``, ``subset_by_value=``); what numpy's rules refuse (complex matrices,
repeated eigenvalues for the vectors, svd's full_matrices vectors of a non-square matrix)."""

import numpy as np
import scipy.linalg as _sl

from ..linalg import decompositions as D
from ..linalg import eigen as E
from ..linalg.matrix import T, refuse_complex, to_symmetric, value_of
from ..registry import define, primitive
from .structure import kept


# --- eigh ------------------------------------------------------------------------------------------

def eigh_uplo(b, lower, overwrite_a, overwrite_b, subset_by_index, subset_by_value):
    kept("scipy.linalg.eigh", overwrite_a=overwrite_a, overwrite_b=overwrite_b)
    if b is not None:
        raise NotImplementedError("scipy.linalg.eigh(a, b): the generalized eigenproblem is not "
                                  "differentiated; for a positive definite b, reduce it with b's Cholesky "
                                  "factor L (eigh of L^-1 a L^-T, solve_triangular) and differentiate that")
    if subset_by_index is not None or subset_by_value is not None:
        raise NotImplementedError("scipy.linalg.eigh with subset_by_index= or subset_by_value= is not "
                                  "differentiated; compute all eigenpairs and select the ones you need")
    return "L" if lower else "U"


def vectors_of(a, uplo):
    """eigh's vectors by the recorded primitive, so the gradient through the values alone can be
    differentiated again."""
    return eigh_packed(a, uplo)[..., 1:, :]


def values_grad(g, w, a, uplo):
    """The gradient through the eigenvalues alone (their vectors computed again, as constants)."""
    return E.eigh_grad(g, 0, w, vectors_of(a, uplo), uplo)


def values_tangent(t, a, uplo):
    refuse_complex(a, "scipy.linalg.eigh")
    v = vectors_of(a, uplo)
    return np.diagonal(np.matmul(np.matmul(T(v), to_symmetric(t, uplo)), v), axis1=-2, axis2=-1)


def eigh_vjp(g, ans, a, b=None, lower=True, eigvals_only=False, overwrite_a=False, overwrite_b=False, type=1,
             check_finite=True, subset_by_index=None, subset_by_value=None, driver=None):
    uplo = eigh_uplo(b, lower, overwrite_a, overwrite_b, subset_by_index, subset_by_value)
    return values_grad(g, ans, a, uplo) if eigvals_only else E.eigh_vjp(g, ans, a, uplo)


def eigh_jvp(t, ans, a, b=None, lower=True, eigvals_only=False, overwrite_a=False, overwrite_b=False, type=1,
             check_finite=True, subset_by_index=None, subset_by_value=None, driver=None):
    uplo = eigh_uplo(b, lower, overwrite_a, overwrite_b, subset_by_index, subset_by_value)
    return values_tangent(t, a, uplo) if eigvals_only else E.eigh_jvp(t, ans, a, uplo)


define(_sl.eigh, vjp=(eigh_vjp,), jvp=(eigh_jvp,))


@primitive
def eigh_packed(a, UPLO="L"):
    """``w, v = scipy.linalg.eigh(a, lower=UPLO == 'L')`` as one array (row 0 is w): what the tape
    records; numpy's eigh_packed rules."""
    w, v = _sl.eigh(a, lower=UPLO == "L")
    return E.pack_rows(w, v)


@primitive
def eigvalsh(a, UPLO="L"):
    """``scipy.linalg.eigh(a, eigvals_only=True)`` (the tape's op for eigenvalues alone)."""
    return _sl.eigh(a, lower=UPLO == "L", eigvals_only=True)


def eigvalsh_vjp(g, ans, a, UPLO="L"):
    return values_grad(g, ans, a, UPLO)


def eigvalsh_jvp(t, ans, a, UPLO="L"):
    return values_tangent(t, a, UPLO)


def eigh_packed_vjp(g, ans, a, UPLO="L"):
    return E.eigh_packed_vjp(g, ans, a, UPLO)


def eigh_packed_jvp(t, ans, a, UPLO="L"):
    return E.eigh_packed_jvp(t, ans, a, UPLO)


define(eigh_packed, vjp=(eigh_packed_vjp,), jvp=(eigh_packed_jvp,))
define(eigvalsh, vjp=(eigvalsh_vjp,), jvp=(eigvalsh_jvp,))


# --- svd -------------------------------------------------------------------------------------------

def svd_vjp(g, ans, a, full_matrices=True, compute_uv=True, overwrite_a=False, check_finite=True,
            lapack_driver="gesdd"):
    kept("scipy.linalg.svd", overwrite_a=overwrite_a)
    return D.svd_vjp(g, ans, a, full_matrices, compute_uv)


def svd_jvp(t, ans, a, full_matrices=True, compute_uv=True, overwrite_a=False, check_finite=True,
            lapack_driver="gesdd"):
    kept("scipy.linalg.svd", overwrite_a=overwrite_a)
    return D.svd_jvp(t, ans, a, full_matrices, compute_uv)


define(_sl.svd, vjp=(svd_vjp,), jvp=(svd_jvp,))


@primitive
def svd_packed(a, lapack_driver="gesdd"):
    """``u, s, vh = scipy.linalg.svd(a, full_matrices=False)`` as one array (rows: u, s, vh^T)."""
    u, s, vh = _sl.svd(a, full_matrices=False, lapack_driver=lapack_driver)
    return np.concatenate([u, np.expand_dims(s, -2), T(vh)], axis=-2)


@primitive
def svd_values(a, lapack_driver="gesdd"):
    return _sl.svd(a, compute_uv=False, lapack_driver=lapack_driver)


@primitive
def svd_full_vectors(a, which, lapack_driver="gesdd"):
    """The full (m x m) u or (n x n) vh of a non-square matrix: values without a derivative."""
    return _sl.svd(a, full_matrices=True, lapack_driver=lapack_driver)[which]


def svd_packed_vjp(g, ans, a, lapack_driver="gesdd"):
    return D.svd_packed_vjp(g, ans, a)


def svd_packed_jvp(t, ans, a, lapack_driver="gesdd"):
    return D.svd_packed_jvp(t, ans, a)


def svd_values_vjp(g, ans, a, lapack_driver="gesdd"):
    return D.svd_values_vjp(g, ans, a)


def svd_values_jvp(t, ans, a, lapack_driver="gesdd"):
    return D.svd_values_jvp(t, ans, a)


def svd_full_vectors_vjp(g, ans, a, which, lapack_driver="gesdd"):
    D.check_svd(a, True, False, True)


define(svd_packed, vjp=(svd_packed_vjp,), jvp=(svd_packed_jvp,))
define(svd_values, vjp=(svd_values_vjp,), jvp=(svd_values_jvp,))
define(svd_full_vectors, vjp=(svd_full_vectors_vjp, None), jvp=(svd_full_vectors_vjp, None))
