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

import numpy as np

from runtime.rules import activations, shape, special
from runtime.rules.registry import nondifferentiable
from runtime.rules.support import dtype_of, is_floating
from runtime.tensor import as_dtype

__all__ = ["numpy_dtype_", "value_", "axis_", "passes_gradient_", "cast_constant_", "shape_", "size_", "rank_", "constant_", "zeros_like_", "ones_like_",
           "zeros_", "ones_", "eye_", "argmax_", "argmin_", "matmul", "matvec", "rsqrt", "squared_difference", "cast",
           "convert_to_tensor", "gather", "where", "reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod", "reduce_logsumexp", "reduce_variance", "reduce_std",
           "reduce_euclidean_norm", "cumsum", "cumprod", "reverse", "log_sigmoid", "softsign", "xlogy",
           "xdivy", "divide_no_nan", "reciprocal_no_nan", "scalar_mul", "bessel_i0e", "bessel_i1e",
           "solve", "inv", "trace", "diag_part", "diag", "matrix_transpose", "logdet", "norm",
           "l2_normalize", "pad"]


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


def shape_(input, out_type=np.int32):
    return np.array(np.shape(input), dtype=numpy_dtype_(out_type))


def size_(input, out_type=np.int32):
    return np.array(np.size(input), dtype=numpy_dtype_(out_type))[()]


def rank_(input):
    return np.int32(np.ndim(input))


def constant_(value, dtype=None, shape=None):
    """``tf.constant``: a new constant (as the runtime's ``tf.constant``, it is not connected to
    ``value``; use ``tf.convert_to_tensor`` or the value itself to keep the gradient)."""
    out = np.array(value_(value), dtype=numpy_dtype_(dtype))
    if shape is None:
        return out
    shape = tuple(int(d) for d in np.ravel(value_(shape)))
    return np.full(shape, out.reshape(()), dtype=out.dtype) if out.size == 1 else out.reshape(shape)


def zeros_like_(input, dtype=None):
    return np.zeros(np.shape(input), dtype=numpy_dtype_(dtype) or dtype_of(input))


def ones_like_(input, dtype=None):
    return np.ones(np.shape(input), dtype=numpy_dtype_(dtype) or dtype_of(input))


def zeros_(shape, dtype=np.float32):
    return np.zeros(tuple(int(d) for d in np.ravel(value_(shape))), dtype=numpy_dtype_(dtype))


def ones_(shape, dtype=np.float32):
    return np.ones(tuple(int(d) for d in np.ravel(value_(shape))), dtype=numpy_dtype_(dtype))


def eye_(num_rows, num_columns=None, batch_shape=None, dtype=np.float32):
    m = np.eye(int(num_rows), None if num_columns is None else int(num_columns), dtype=numpy_dtype_(dtype))
    return m if batch_shape is None else np.broadcast_to(m, tuple(batch_shape) + m.shape).copy()


def passes_gradient_(x, dtype):
    """Does a cast of ``x`` to ``dtype`` pass a gradient (float or complex on both sides)?"""
    return bool(is_floating(x)) and np.issubdtype(numpy_dtype_(dtype), np.inexact)


def cast_constant_(x, dtype):
    """A cast no gradient passes (to or from integers or bool): truncates toward zero, as TF."""
    return shape.cast(x, numpy_dtype_(dtype))


def argmax_(input, axis=None, output_type=np.int64):
    """``tf.argmax``: along axis 0 when no axis is given (numpy would flatten)."""
    return np.argmax(input, axis=0 if axis is None else int(axis)).astype(numpy_dtype_(output_type))


def argmin_(input, axis=None, output_type=np.int64):
    return np.argmin(input, axis=0 if axis is None else int(axis)).astype(numpy_dtype_(output_type))


nondifferentiable(numpy_dtype_, value_, axis_, passes_gradient_, cast_constant_, shape_, size_, rank_, constant_, zeros_like_, ones_like_, zeros_, ones_,
                  eye_, argmax_, argmin_)


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


def gather(params, indices, validate_indices=None, axis=None, name=None):
    return np.take(params, indices, axis=0 if axis is None else axis)


def where(condition, x, y, name=None):
    return np.where(condition, x, y)


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
    return np.where(zero, 0.0 * x, x * np.log(np.where(zero, 1.0, y)))


def xdivy(x, y, name=None):
    zero = x == 0
    return np.where(zero, 0.0 * x, x / np.where(zero, 1.0, y))


def divide_no_nan(x, y, name=None):
    zero = y == 0
    return np.where(zero, 0.0 * x, x / np.where(zero, 1.0, y))


def reciprocal_no_nan(x, name=None):
    zero = x == 0
    return np.where(zero, 0.0 * x, 1.0 / np.where(zero, 1.0, x))


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
