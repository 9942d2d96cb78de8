"""``tf.linalg``: matrix products, inverse, determinant, solve, Cholesky, trace, diagonals, norms."""

import numpy as np

from . import errors
from .math_ops import _t, _np, matmul, matvec, norm, tensordot, einsum, transpose as _transpose  # noqa: F401
from .math_ops import global_norm, l2_normalize, eye  # noqa: F401
from .tensor import apply

__all__ = ["matmul", "matvec", "inv", "det", "slogdet", "logdet", "solve", "cholesky", "trace",
           "diag_part", "diag", "norm", "tensordot", "einsum", "matrix_transpose", "eye",
           "global_norm", "l2_normalize", "adjoint", "band_part"]


def _square(x, what):
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise errors.InvalidArgumentError(f"{what}: input must be a square matrix (or a batch), got shape {x.shape}")


def inv(input, adjoint=False, name=None):
    x = _t(input)
    _square(x, "Input")
    if adjoint:
        x = matrix_transpose(x)
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
    x = _t(input)
    sign = np.sign(np.linalg.det(x._value))
    from .tensor import _wrap
    logabs = apply(np.log, (apply(np.abs, (apply(np.linalg.det, (x,)),)),))
    return _wrap(np.asarray(sign, dtype=x._value.dtype)[()]), logabs


def solve(matrix, rhs, adjoint=False, name=None):
    a, b = _t(matrix), _t(rhs)
    _square(a, "Input matrix")
    if adjoint:
        a = matrix_transpose(a)
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
    return apply(np.swapaxes, (_t(a), -1, -2))


adjoint = matrix_transpose


def band_part(input, num_lower, num_upper, name=None):
    x = _t(input)
    n, m = x.shape[-2], x.shape[-1]
    i = np.arange(n)[:, None]
    j = np.arange(m)[None, :]
    lo, up = int(_np(num_lower)), int(_np(num_upper))
    mask = ((lo < 0) | (i - j <= lo)) & ((up < 0) | (j - i <= up))
    return x * mask.astype(x._value.dtype)
