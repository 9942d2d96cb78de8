"""numpy twins of ``tf.*`` math, array and linalg functions that are not one numpy primitive.

Inside a ``@differentiate`` function, ``tf.math.rsqrt(x)`` cannot stay a runtime call (it would
return a Tensor to numpy code), and it is not one primitive either.  tfcalls.py writes such a
call as a call of its twin here: a plain numpy function with TensorFlow's parameters (the ones
adjoin supports), computing what the runtime op computes.  The transpiler reads a twin as it
reads any user function and differentiates it as a callee, so each twin is differentiated by the
rules of the numpy primitives it calls -- in reverse, forward and higher-order modes alike.

Functions ending in ``_`` read only shapes, dtypes or values no gradient passes (registered
nondifferentiable): the transpiler treats what they return as constants.  Twins never convert
an argument with ``np.asarray``: generated code also runs on tensors inside a GradientTape
(transpiler/interop.py), where that conversion would drop the gradient (and raises).
"""

import functools

import numpy as np

from runtime import array_extra, math_extra, math_ops as m
from runtime.rules import activations, shape, special
from runtime.rules.registry import nondifferentiable
from runtime.rules.support import dtype_of, is_floating
from runtime.tensor import as_dtype

__all__ = ["numpy_dtype_", "value_", "axis_", "passes_gradient_", "cast_constant_", "matmul", "matvec",
           "rsqrt", "squared_difference", "cast", "convert_to_tensor", "transpose", "gather", "where", "one_hot",
           "fill", "linspace", "split", "split_points_", "unstack", "sort", "boolean_mask",
           "gather_nd", "roll", "repeat", "top_k", "top_k_indices_", "unsorted_segment_sum",
           "segment_sum", "unsorted_segment_mean", "segment_mean", "membership_", "segment_sizes_",
           "reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod",
           "reduce_logsumexp", "reduce_variance", "reduce_std", "reduce_euclidean_norm", "cumsum",
           "cumprod", "reverse", "multiply_no_nan", "saturate_cast", "clip_by_norm", "scalar_mul",
           "pad", "log_sigmoid", "softsign", "xlogy", "xlog1py", "xdivy", "divide_no_nan",
           "reciprocal_no_nan", "bessel_i0e", "bessel_i1e", "solve", "inv", "trace", "diag_part",
           "diag", "matrix_transpose", "band_part", "band_mask_", "svd", "qr", "pinv",
           "pinv_rcond_", "lstsq", "logdet", "norm", "l2_normalize", "shape_", "size_", "rank_",
           "constant_", "zeros_like_", "ones_like_", "zeros_", "ones_", "eye_", "range_", "argmax_",
           "argmin_", "argsort_", "count_nonzero_", "sequence_mask_", "one_hot_", "where_true_",
           "truncatediv_", "truncatemod_"]


# --- constants: shapes, dtypes, creation (no gradient passes) -----------------------------------

def numpy_dtype_(dtype):
    """A TF dtype (``tf.float64``, ``'float64'``, ``np.float64``) as a numpy dtype; None stays None."""
    return None if dtype is None else np.dtype(as_dtype(dtype).as_numpy_dtype)


def value_(x):
    """The numpy value of ``x`` (of a tensor: its ``.numpy()``, read without a gradient)."""
    return x.numpy() if hasattr(x, "numpy") else np.asarray(x)


def axis_(axis):
    """TF's axis argument (an int, a list or an int array of axes) as numpy wants it."""
    if axis is None or isinstance(axis, (int, np.integer)):
        return axis
    values = value_(axis)
    return tuple(int(a) for a in values.reshape(-1)) if values.ndim else int(values)


def _value_of(op, name):
    """A helper giving the value of the runtime op ``op`` as numpy, for ops no gradient passes
    (shapes, creation, indices, masks): what it returns is a constant in generated code."""
    @functools.wraps(op)
    def helper(*args, **kwargs):
        return value_(op(*args, **kwargs))

    helper.__name__ = helper.__qualname__ = name
    helper.__module__ = __name__
    helper.__doc__ = f"The value of the runtime's {op.__name__} (a constant: no gradient passes)."
    nondifferentiable(helper)
    return helper


shape_ = _value_of(m.shape, "shape_")
size_ = _value_of(m.size, "size_")
rank_ = _value_of(m.rank, "rank_")
constant_ = _value_of(m.constant, "constant_")      # as the runtime's: not connected to its value
zeros_like_ = _value_of(m.zeros_like, "zeros_like_")
ones_like_ = _value_of(m.ones_like, "ones_like_")
zeros_ = _value_of(m.zeros, "zeros_")
ones_ = _value_of(m.ones, "ones_")
eye_ = _value_of(m.eye, "eye_")
range_ = _value_of(m.range, "range_")
argmax_ = _value_of(m.argmax, "argmax_")
argmin_ = _value_of(m.argmin, "argmin_")
argsort_ = _value_of(array_extra.argsort, "argsort_")
count_nonzero_ = _value_of(m.count_nonzero, "count_nonzero_")
sequence_mask_ = _value_of(array_extra.sequence_mask, "sequence_mask_")
one_hot_ = _value_of(m.one_hot, "one_hot_")
where_true_ = _value_of(m.where, "where_true_")
truncatediv_ = _value_of(math_extra.truncatediv, "truncatediv_")
truncatemod_ = _value_of(math_extra.truncatemod, "truncatemod_")


def passes_gradient_(x, dtype):
    """Does a cast of ``x`` to ``dtype`` pass a gradient (float or complex on both sides)?"""
    return bool(is_floating(x)) and np.issubdtype(numpy_dtype_(dtype), np.inexact)


def cast_constant_(x, dtype):
    """A cast no gradient passes (to or from integers or bool): truncates toward zero, as TF."""
    return shape.cast(x, numpy_dtype_(dtype))


nondifferentiable(numpy_dtype_, value_, axis_, passes_gradient_, cast_constant_)


# --- arithmetic and reductions ------------------------------------------------------------------

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


def rsqrt(x, name=None):
    return 1.0 / np.sqrt(x)


def squared_difference(x, y, name=None):
    d = x - y
    return d * d


def cast(x, dtype, name=None):
    """The runtime's cast primitive, whose rule passes the gradient between float dtypes."""
    if passes_gradient_(x, dtype):
        return shape.cast(x, numpy_dtype_(dtype))
    return cast_constant_(x, dtype)


def convert_to_tensor(value, dtype=None, dtype_hint=None, name=None):
    """Python values become arrays; arrays (and tensors) pass as they are, as TF passes a tensor."""
    if isinstance(value, (int, float, list, tuple)):
        return np.asarray(value, dtype=numpy_dtype_(dtype))
    return value


def transpose(a, perm=None, conjugate=False, name=None):
    out = np.transpose(a, axis_(perm))
    if conjugate:
        out = np.conj(out)
    return out


def gather(params, indices, validate_indices=None, axis=None, name=None):
    return np.take(params, indices, axis=0 if axis is None else axis)


def where(condition, x=None, y=None, name=None):
    """A select; alone, the int64 coordinates of the true entries (a constant)."""
    if x is None and y is None:
        return where_true_(condition)
    return np.where(condition, x, y)


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """The runtime's one-hot constant; an ``on_value``/``off_value`` given (maybe differentiated)
    is selected into it, so its gradient is the sum over the entries that hold it."""
    if on_value is None and off_value is None:
        return one_hot_(indices, depth, axis=axis, dtype=dtype)
    hot = one_hot_(indices, depth, axis=axis, dtype=np.bool_)
    return np.where(hot, 1.0 if on_value is None else on_value, 0.0 if off_value is None else off_value)


def fill(dims, value, name=None):
    return value * ones_(dims, dtype=dtype_of(value))


def linspace(start, stop, num, name=None, axis=0):
    return np.linspace(start, stop, num, axis=axis)


def split(value, num_or_size_splits, axis=0, num=None, name=None):
    return np.split(value, split_points_(value, num_or_size_splits, axis), axis=axis)


def split_points_(value, num_or_size_splits, axis):
    """np.split's sections for TF's count or list of sizes (one of them may be -1)."""
    sizes = value_(num_or_size_splits)
    if sizes.ndim == 0:
        return int(sizes)
    sizes = [int(v) for v in sizes]
    if -1 in sizes:
        sizes[sizes.index(-1)] = np.shape(value)[axis] - (sum(sizes) + 1)
    return [int(v) for v in np.cumsum(sizes)[:-1]]


def unstack(value, num=None, axis=0, name=None):
    return [np.take(value, i, axis=axis) for i in range(np.shape(value)[axis])]


def sort(values, axis=-1, direction="ASCENDING", name=None):
    ordered = np.sort(values, axis=axis)
    if direction == "DESCENDING":
        ordered = np.flip(ordered, axis)
    return ordered


def boolean_mask(tensor, mask, axis=None, name=None):
    if axis is None or axis == 0:
        return tensor[value_(mask).astype(bool)]
    return np.compress(np.ravel(value_(mask)).astype(bool), tensor, axis=axis)


def gather_nd(params, indices, name=None):
    return params[tuple(np.moveaxis(value_(indices), -1, 0))]


def roll(input, shift, axis, name=None):
    return np.roll(input, shift, axis)


def repeat(input, repeats, axis=None, name=None):
    return np.repeat(input, repeats, axis=axis)


def top_k(input, k=1, sorted=True, name=None):
    """(values, indices) of the k largest entries along the last axis (ties: the lower index first)."""
    indices = top_k_indices_(input, k)
    return np.take_along_axis(input, indices, axis=-1), indices


def top_k_indices_(input, k):
    return value_(math_extra.top_k(input, k).indices)


def unsorted_segment_sum(data, segment_ids, num_segments, name=None):
    """Sums of the rows of each segment, as a product with the segments' 0/1 membership."""
    return np.tensordot(membership_(data, segment_ids, num_segments), data, axes=np.ndim(segment_ids))


def segment_sum(data, segment_ids, name=None):
    return np.tensordot(membership_(data, segment_ids, None), data, axes=np.ndim(segment_ids))


def unsorted_segment_mean(data, segment_ids, num_segments, name=None):
    """Segment sums over segment sizes; an empty segment is 0."""
    member = membership_(data, segment_ids, num_segments)
    total = np.tensordot(member, data, axes=np.ndim(segment_ids))
    return total / segment_sizes_(member, data, segment_ids)


def segment_mean(data, segment_ids, name=None):
    member = membership_(data, segment_ids, None)
    total = np.tensordot(member, data, axes=np.ndim(segment_ids))
    return total / segment_sizes_(member, data, segment_ids)


def membership_(data, segment_ids, num_segments):
    """[segment, *segment_ids.shape]: 1 where a row belongs to the segment (negative ids: nowhere)."""
    ids = value_(segment_ids)
    if ids.dtype.kind not in "iu":
        raise TypeError(f"segment_ids must be an integer tensor, got dtype {ids.dtype}")
    n = (int(ids.max()) + 1 if ids.size else 0) if num_segments is None else int(value_(num_segments))
    if ids.size and ids.max() >= n:
        raise ValueError(f"segment_ids must be below num_segments = {n}, got {int(ids.max())}")
    return np.moveaxis(ids[..., None] == np.arange(n), -1, 0).astype(dtype_of(data))


def segment_sizes_(member, data, segment_ids):
    """Rows per segment (at least 1), shaped to divide the segment sums."""
    sizes = np.maximum(np.sum(member.reshape(member.shape[0], -1), axis=1), 1)
    return sizes.reshape((-1,) + (1,) * (np.ndim(data) - np.ndim(segment_ids)))


def reduce_sum(input_tensor, axis=None, keepdims=False, name=None):
    return np.sum(input_tensor, axis=axis_(axis), keepdims=keepdims)


def reduce_mean(input_tensor, axis=None, keepdims=False, name=None):
    return np.mean(input_tensor, axis=axis_(axis), keepdims=keepdims)


def reduce_max(input_tensor, axis=None, keepdims=False, name=None):
    return np.max(input_tensor, axis=axis_(axis), keepdims=keepdims)


def reduce_min(input_tensor, axis=None, keepdims=False, name=None):
    return np.min(input_tensor, axis=axis_(axis), keepdims=keepdims)


def reduce_prod(input_tensor, axis=None, keepdims=False, name=None):
    return np.prod(input_tensor, axis=axis_(axis), keepdims=keepdims)


def reduce_logsumexp(input_tensor, axis=None, keepdims=False, name=None):
    return activations.logsumexp(input_tensor, axis=axis_(axis), keepdims=keepdims)


def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    return np.var(input_tensor, axis=axis_(axis), keepdims=keepdims)


def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    return np.std(input_tensor, axis=axis_(axis), keepdims=keepdims)


def reduce_euclidean_norm(input_tensor, axis=None, keepdims=False, name=None):
    return np.sqrt(np.sum(input_tensor * input_tensor, axis=axis_(axis), keepdims=keepdims))


def cumsum(x, axis=0, exclusive=False, reverse=False, name=None):
    if reverse:
        x = np.flip(x, axis)
    y = np.cumsum(x, axis)
    if exclusive:
        y = y - x
    if reverse:
        y = np.flip(y, axis)
    return y


def cumprod(x, axis=0, exclusive=False, reverse=False, name=None):
    """An exclusive product shifts the inclusive one by one place (a 1 first), so no division."""
    if reverse:
        x = np.flip(x, axis)
    y = np.cumprod(x, axis)
    if exclusive:
        n = np.shape(x)[axis]
        y = np.concatenate([np.ones_like(np.take(x, [0], axis=axis)), np.take(y, np.arange(n - 1), axis=axis)],
                           axis=axis)
    if reverse:
        y = np.flip(y, axis)
    return y


def reverse(tensor, axis, name=None):
    return np.flip(tensor, axis_(axis))


def multiply_no_nan(x, y, name=None):
    """x * y, and 0 where y == 0 (even where x is inf or nan); d/dy is x, as TF's gradient."""
    safe = np.where(np.logical_and(y == 0, np.logical_not(np.isfinite(x))), zeros_like_(x), x)
    return safe * y


def saturate_cast(value, dtype, name=None):
    info = np.finfo(numpy_dtype_(dtype)) if np.issubdtype(numpy_dtype_(dtype), np.inexact) \
        else np.iinfo(numpy_dtype_(dtype))
    return cast(np.clip(value, info.min, info.max), dtype)


def clip_by_norm(t, clip_norm, axes=None, name=None):
    """t * clip_norm / max(||t||, clip_norm), with the norm over ``axes`` (TF's safe form at 0)."""
    l2sum = np.sum(t * t, axis=axis_(axes), keepdims=True)
    positive = l2sum > 0
    l2norm = np.where(positive, np.sqrt(np.where(positive, l2sum, 1.0)), l2sum)
    return t * clip_norm / np.maximum(l2norm, clip_norm)


def scalar_mul(scalar, x, name=None):
    return scalar * x


def pad(tensor, paddings, mode="CONSTANT", constant_values=0, name=None):
    """Constant padding only (``mode='CONSTANT'``, as the runtime's ``tf.pad``)."""
    return np.pad(tensor, paddings, constant_values=constant_values)


# --- elementwise functions with a safe branch ---------------------------------------------------

def log_sigmoid(x, name=None):
    return -activations.softplus(-x)


def softsign(x, name=None):
    return x / (1 + np.abs(x))


def xlogy(x, y, name=None):
    """x * log(y), and 0 where x == 0 (the log never sees the y there)."""
    zero = x == 0
    return np.where(zero, zeros_like_(x), x * np.log(np.where(zero, 1.0, y)))


def xlog1py(x, y, name=None):
    zero = x == 0
    return np.where(zero, zeros_like_(x), x * np.log1p(np.where(zero, 0.0, y)))


def xdivy(x, y, name=None):
    zero = x == 0
    return np.where(zero, zeros_like_(x), x / np.where(zero, 1.0, y))


def divide_no_nan(x, y, name=None):
    zero = y == 0
    return np.where(zero, zeros_like_(x), x / np.where(zero, 1.0, y))


def reciprocal_no_nan(x, name=None):
    zero = x == 0
    return np.where(zero, zeros_like_(x), 1.0 / np.where(zero, 1.0, x))


def bessel_i0e(x, name=None):
    return np.exp(-np.abs(x)) * np.i0(x)


def bessel_i1e(x, name=None):
    return np.exp(-np.abs(x)) * special.i1(x)


# --- linear algebra -----------------------------------------------------------------------------

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


nondifferentiable(split_points_, band_mask_, pinv_rcond_, top_k_indices_, membership_, segment_sizes_)
