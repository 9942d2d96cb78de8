"""numpy twins of ``tf.matmul``'s options, ``tf.linalg.*`` and norms (see ops.py for what a twin is)."""

import numpy as np

from runtime.rules.registry import nondifferentiable
from runtime.rules.support import dtype_of

from .ops import axis_, value_

__all__ = ["matmul", "matvec", "solve", "inv", "trace", "diag_part", "diag", "matrix_transpose", "adjoint", "triangular_solve", "band_part",
           "band_mask_", "svd", "qr", "pinv", "pinv_rcond_", "lstsq", "logdet", "norm",
           "l2_normalize"]


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False, name=None):
    if transpose_a and adjoint_a or transpose_b and adjoint_b:
        raise ValueError("tf.matmul: only one of transpose_a and adjoint_a (transpose_b and adjoint_b) can be True")
    if transpose_a:
        a = np.swapaxes(a, -1, -2)
    if adjoint_a:
        a = np.conj(np.swapaxes(a, -1, -2))
    if transpose_b:
        b = np.swapaxes(b, -1, -2)
    if adjoint_b:
        b = np.conj(np.swapaxes(b, -1, -2))
    return np.matmul(a, b)


def matvec(a, b, transpose_a=False, adjoint_a=False, name=None):
    if transpose_a:
        a = np.swapaxes(a, -1, -2)
    if adjoint_a:
        a = np.conj(np.swapaxes(a, -1, -2))
    return np.squeeze(np.matmul(a, np.expand_dims(b, -1)), -1)


def solve(matrix, rhs, adjoint=False, name=None):
    if adjoint:
        matrix = np.conj(np.swapaxes(matrix, -1, -2))
    return np.linalg.solve(matrix, rhs)


def inv(input, adjoint=False, name=None):
    if adjoint:
        input = np.conj(np.swapaxes(input, -1, -2))
    return np.linalg.inv(input)


def trace(x, name=None):
    return np.trace(x, axis1=-2, axis2=-1)


def diag_part(input, name=None, k=0):
    return np.diagonal(input, offset=k, axis1=-2, axis2=-1)


def diag(diagonal, name=None):
    return np.expand_dims(diagonal, -1) * np.eye(np.shape(diagonal)[-1])


def matrix_transpose(a, name=None, conjugate=False):
    if conjugate:
        a = np.conj(a)
    return np.swapaxes(a, -1, -2)


def adjoint(matrix, name=None):
    return np.conj(np.swapaxes(matrix, -1, -2))


def triangular_solve(matrix, rhs, lower=True, adjoint=False, name=None):
    """Only the lower (upper) triangle is read, so only it gets a gradient, as in TF."""
    triangle = band_part(matrix, -1, 0) if lower else band_part(matrix, 0, -1)
    return solve(triangle, rhs, adjoint=adjoint)


def band_part(input, num_lower, num_upper, name=None):
    return input * band_mask_(input, num_lower, num_upper)


def band_mask_(input, num_lower, num_upper):
    """1 inside the band (a negative bound keeps that whole triangle), 0 outside."""
    i = np.arange(np.shape(input)[-2])[:, None]
    j = np.arange(np.shape(input)[-1])[None, :]
    lo, up = int(value_(num_lower)), int(value_(num_upper))
    return (((lo < 0) | (i - j <= lo)) & ((up < 0) | (j - i <= up))).astype(dtype_of(input))


def svd(tensor, full_matrices=False, compute_uv=True, name=None):
    """TF's order (s, u, v), with v not transposed; only the singular values without compute_uv."""
    if not compute_uv:
        return np.linalg.svd(tensor, full_matrices=full_matrices, compute_uv=False)
    u, s, vh = np.linalg.svd(tensor, full_matrices=full_matrices)
    return s, u, np.conj(np.swapaxes(vh, -1, -2))


def qr(input, full_matrices=False, name=None):
    return np.linalg.qr(input, mode="complete" if full_matrices else "reduced")


def pinv(a, rcond=None, validate_args=False, name=None):
    """TF's default cutoff: 10 * max(m, n) * eps times the largest singular value."""
    if rcond is None:
        rcond = pinv_rcond_(a)
    return np.linalg.pinv(a, rcond=rcond)


def pinv_rcond_(a):
    return 10.0 * max(np.shape(a)[-2], np.shape(a)[-1]) * np.finfo(dtype_of(a)).eps


def lstsq(matrix, rhs, l2_regularizer=0.0, fast=True, name=None):
    """TF's fast least squares: the (regularised) normal equations."""
    at = np.swapaxes(matrix, -1, -2)
    m, n = np.shape(matrix)[-2], np.shape(matrix)[-1]
    if m >= n:
        return np.linalg.solve(at @ matrix + l2_regularizer * np.eye(n), at @ rhs)
    return at @ np.linalg.solve(matrix @ at + l2_regularizer * np.eye(m), rhs)


def logdet(matrix, name=None):
    """log det of a Hermitian positive definite matrix, from its Cholesky factor (as TF)."""
    return 2.0 * np.sum(np.log(np.diagonal(np.linalg.cholesky(matrix), axis1=-2, axis2=-1)), axis=-1)


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None):
    """Vector norms (euclidean, 1, inf, p > 0) and the Frobenius norm, as the runtime's ``tf.norm``."""
    ax = axis_(axis)
    keep = bool(keepdims)
    if isinstance(ax, tuple) and len(ax) == 2 and not (ord == "euclidean" or ord == "fro"):
        raise ValueError("tf.norm over two axes in differentiated code: only ord='euclidean' or 'fro'")
    if ord == "euclidean" or ord == "fro" or ord == 2:
        return np.sqrt(np.sum(tensor * tensor, axis=ax, keepdims=keep))
    if ord == 1:
        return np.sum(np.abs(tensor), axis=ax, keepdims=keep)
    if ord == np.inf:
        return np.max(np.abs(tensor), axis=ax, keepdims=keep)
    return np.sum(np.abs(tensor) ** ord, axis=ax, keepdims=keep) ** (1.0 / ord)


def l2_normalize(x, axis=None, epsilon=1e-12, name=None):
    ss = np.sum(x * x, axis=axis_(axis), keepdims=True)
    return x / np.sqrt(np.maximum(ss, epsilon))


nondifferentiable(band_mask_, pinv_rcond_)
