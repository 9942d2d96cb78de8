"""numpy twins of ``tf.*`` math functions that are not one numpy primitive, and the helpers for
constants every twin module uses (arrays.py: arrays; linalg.py: products and linear algebra).

Inside a ``@differentiate`` function, ``tf.math.rsqrt(x)`` cannot stay a runtime call (it would
return a Tensor to numpy code), and it is not one primitive either.  bridge/tf_calls.py writes such a
call as a call of its twin here: a plain numpy function with TensorFlow's parameters (the ones
adjoin supports), computing what the runtime op computes.  The transpiler reads a twin as it
reads any user function and differentiates it as a callee, so each twin is differentiated by the
rules of the numpy primitives it calls -- in reverse, forward and higher-order modes alike.

Functions ending in ``_`` read only shapes, dtypes or values no gradient passes (registered
nondifferentiable): the transpiler treats what they return as constants.  Twins never convert
an argument with ``np.asarray``: generated code also runs on tensors inside a GradientTape
(bridge/tape_call.py), where that conversion would drop the gradient (and raises).
"""

import functools

import numpy as np

from runtime.ops import array_extra, math_extra, math_ops as m
from runtime.rules import activations, shape, special
from runtime.rules.registry import nondifferentiable
from runtime.rules.support import is_floating
from runtime.engine.dtypes import as_dtype

__all__ = ["numpy_dtype_", "value_", "axis_", "passes_gradient_", "cast_constant_", "rsqrt",
           "squared_difference", "cast", "convert_to_tensor", "reduce_sum", "reduce_mean",
           "reduce_max", "reduce_min", "reduce_prod", "reduce_logsumexp", "reduce_variance",
           "reduce_std", "reduce_euclidean_norm", "cumsum", "cumprod", "multiply_no_nan",
           "saturate_cast", "clip_by_norm", "scalar_mul", "log_sigmoid", "softsign", "xlogy",
           "xlog1py", "xdivy", "divide_no_nan", "reciprocal_no_nan", "bessel_i0e", "bessel_i1e",
           "shape_", "size_", "rank_", "constant_", "zeros_like_", "ones_like_", "zeros_", "ones_",
           "eye_", "range_", "argmax_", "argmin_", "argsort_", "count_nonzero_", "sequence_mask_",
           "one_hot_", "where_true_", "truncatediv_", "truncatemod_"]


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
