"""``tf.linalg``: matrix products, inverse, determinant, solve, Cholesky, decompositions (svd, eigh,
qr), least squares, trace, diagonals, norms.

The decompositions run numpy's on tensors, so their gradients are the rules in
``runtime/rules/linalg.py`` (TensorFlow's conventions: eigh's gradient lands in the lower
triangle it reads, cholesky's is symmetric).  TF's own result layouts are kept: ``svd`` returns
``(s, u, v)`` with v, not numpy's ``vh``, and ``full_matrices=False`` by default.
"""

import numpy as np

from .engine import errors
from .ops.math_ops import _conj_if, _t, _np, matmul, matvec, norm, tensordot, einsum, transpose as _transpose  # noqa: F401
from .ops.math_ops import global_norm, l2_normalize, eye  # noqa: F401
from .rules.registry import alias
from .engine.tensor import apply

__all__ = ["matmul", "matvec", "inv", "det", "slogdet", "logdet", "solve", "cholesky", "trace",
           "diag_part", "diag", "norm", "tensordot", "einsum", "matrix_transpose", "eye",
           "global_norm", "l2_normalize", "adjoint", "triangular_solve", "band_part", "svd", "eigh", "eigvalsh", "qr",
           "pinv", "lstsq"]


def _square(x, what):
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise errors.InvalidArgumentError(f"{what}: input must be a square matrix (or a batch), got shape {x.shape}")


def inv(input, adjoint=False, name=None):
    x = _t(input)
    _square(x, "Input")
    if adjoint:
        x = matrix_transpose(x, conjugate=True)
    try:
        return apply(np.linalg.inv, (x,))
    except errors.InvalidArgumentError:
        raise
    except np.linalg.LinAlgError:
        raise errors.InvalidArgumentError("Input is not invertible.") from None


def det(input, name=None):
    x = _t(input)
    _square(x, "Input")
    return apply(np.linalg.det, (x,))


def logdet(matrix, name=None):
    """log det of a Hermitian positive definite matrix: 2 * sum(log(diag(cholesky)))."""
    c = cholesky(matrix)
    return 2.0 * apply(np.sum, (apply(np.log, (diag_part(c),)),), {"axis": -1})


def slogdet(input, name=None):
    """(sign, log|det|): the gradient flows through log|det| (the sign is piecewise constant)."""
    x = _t(input)
    _square(x, "Input")
    return tuple(np.linalg.slogdet(x))


def solve(matrix, rhs, adjoint=False, name=None):
    a, b = _t(matrix), _t(rhs)
    _square(a, "Input matrix")
    if adjoint:
        a = matrix_transpose(a, conjugate=True)
    if b.ndim < 2:
        raise errors.InvalidArgumentError(f"Input rhs must have rank >= 2, got {b.shape}")
    try:
        return apply(np.linalg.solve, (a, b))
    except np.linalg.LinAlgError:
        raise errors.InvalidArgumentError("Input matrix is not invertible.") from None


def cholesky(input, name=None):
    x = _t(input)
    _square(x, "Input")
    try:
        return apply(np.linalg.cholesky, (x,))
    except np.linalg.LinAlgError:
        raise errors.InvalidArgumentError(
            "Cholesky decomposition was not successful. The input might not be valid.") from None


def trace(x, name=None):
    return apply(np.trace, (_t(x),), {"axis1": -2, "axis2": -1})


def diag_part(input, name="diag_part", k=0, padding_value=0, align="RIGHT_LEFT"):
    return apply(np.diagonal, (_t(input),), {"offset": int(k), "axis1": -2, "axis2": -1})


def diag(diagonal, name="diag", k=0, num_rows=-1, num_cols=-1, padding_value=0, align="RIGHT_LEFT"):
    """A (batch of) square matrices with ``diagonal`` on the main diagonal."""
    d = _t(diagonal)
    n = d.shape[-1]
    return apply(np.expand_dims, (d, -1)) * np.eye(n, dtype=d._value.dtype)


def matrix_transpose(a, name="matrix_transpose", conjugate=False):
    return _conj_if(apply(np.swapaxes, (_t(a), -1, -2)), conjugate)


def adjoint(matrix, name=None):
    """The conjugate transpose of the last two axes (the transpose for real matrices)."""
    return matrix_transpose(matrix, conjugate=True)


def triangular_solve(matrix, rhs, lower=True, adjoint=False, name=None):
    """Solve with the lower (or upper) triangle of ``matrix`` only, as TF does: the other
    triangle is never read, and its gradient is zero."""
    a, b = _t(matrix), _t(rhs)
    _square(a, "Input matrix")
    tri = band_part(a, -1, 0) if lower else band_part(a, 0, -1)
    return solve(tri, b, adjoint=adjoint)


def band_part(input, num_lower, num_upper, name=None):
    x = _t(input)
    n, m = x.shape[-2], x.shape[-1]
    i = np.arange(n)[:, None]
    j = np.arange(m)[None, :]
    lo, up = int(_np(num_lower)), int(_np(num_upper))
    mask = ((lo < 0) | (i - j <= lo)) & ((up < 0) | (j - i <= up))
    return x * mask.astype(x._value.dtype)


def _decomposition(fn, what, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except np.linalg.LinAlgError as e:
        raise errors.InvalidArgumentError(f"{what}: {e}") from None


def svd(tensor, full_matrices=False, compute_uv=True, name=None):
    """TF's order and layout: ``s, u, v = svd(a)`` with ``a = u @ diag(s) @ v^T`` (v, not vh)."""
    x = _t(tensor)
    if not compute_uv:
        return _decomposition(np.linalg.svd, "Svd", x, compute_uv=False)
    u, s, vh = _decomposition(np.linalg.svd, "Svd", x, full_matrices=bool(full_matrices))
    return s, u, matrix_transpose(vh)


def eigh(tensor, name=None):
    """``e, v = eigh(a)``: eigenvalues ascending; only the lower triangle of ``a`` is read."""
    x = _t(tensor)
    _square(x, "Input")
    return tuple(_decomposition(np.linalg.eigh, "SelfAdjointEigV2", x))


def eigvalsh(tensor, name=None):
    x = _t(tensor)
    _square(x, "Input")
    return _decomposition(np.linalg.eigvalsh, "SelfAdjointEigV2", x)


def qr(input, full_matrices=False, name=None):
    """``q, r = qr(a)``; gradients for square and tall matrices (m >= n) with full_matrices=False."""
    x = _t(input)
    mode = "complete" if full_matrices else "reduced"
    return tuple(_decomposition(np.linalg.qr, "Qr", x, mode=mode))


def pinv(a, rcond=None, validate_args=False, name=None):
    """The pseudo-inverse; TF's default cutoff ``10 * max(m, n) * eps`` times the largest singular value."""
    x = _t(a)
    if rcond is None:
        rcond = 10.0 * max(x.shape[-2], x.shape[-1]) * np.finfo(x._value.dtype).eps
    return np.linalg.pinv(x, rcond=float(_np(rcond)))


def lstsq(matrix, rhs, l2_regularizer=0.0, fast=True, name=None):
    """TF's ``fast`` least squares (normal equations, optionally regularised), batched; full rank."""
    a, b = _t(matrix), _t(rhs)
    m, n = a.shape[-2], a.shape[-1]
    lam = float(_np(l2_regularizer))
    at = matrix_transpose(a)
    if m >= n:
        gram = matmul(at, a)
        if lam:
            gram = gram + lam * np.eye(n, dtype=a._value.dtype)
        return solve(gram, matmul(at, b))
    gram = matmul(a, at)
    if lam:
        gram = gram + lam * np.eye(m, dtype=a._value.dtype)
    return matmul(at, solve(gram, b))


# In @differentiate functions the transpiler writes these as the numpy primitives they compute.
alias(inv, np.linalg.inv, ["input"])
alias(det, np.linalg.det, ["input"])
alias(cholesky, np.linalg.cholesky, ["input"])
alias(slogdet, np.linalg.slogdet, ["input"])
alias(eigh, np.linalg.eigh, ["tensor"])
alias(eigvalsh, np.linalg.eigvalsh, ["tensor"])
