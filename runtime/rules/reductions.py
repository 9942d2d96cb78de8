"""Rules for reductions: sum, mean, max/min, prod, var/std, cumsum.

Rule signatures mirror numpy's, so ``np.sum(x, 0)`` and ``np.sum(x, axis=0, keepdims=True)``
bind the same way.  ``axis`` may be None, an int or a tuple, negative values allowed.

* ``max``/``min`` split the gradient evenly among tied maximal elements (TF's reduce_max).
  With ``initial=`` larger than every element no element is maximal; that case is not supported.
* ``prod`` is exact at first order for any number of zeros in the input: the gradient of a
  nonzero element is ans / x, of a sole zero the product of the others, and 0 where two or
  more zeros share a reduced slice.  Second derivatives are exact away from zeros.
* ``where=`` (sum and mean) masks the gradient; ``dtype=``/``out=`` are ignored by the rules.
"""

import numpy as np

from .registry import define, nondifferentiable, primitive
from .support import expand_reduced, reduced_size, shape_of


# --- sum --------------------------------------------------------------------------------

def sum_vjp(g, ans, a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    if where is not None:
        return np.where(where, expand_reduced(g, a, axis, keepdims), 0.0)
    return expand_reduced(g, a, axis, keepdims)


def sum_jvp(t, ans, a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    if where is not None:
        return np.sum(t, axis=axis, keepdims=keepdims, where=where)
    return np.sum(t, axis=axis, keepdims=keepdims)


define(np.sum, vjp=(sum_vjp,), jvp=(sum_jvp,))


# --- mean -------------------------------------------------------------------------------

def mean_vjp(g, ans, a, axis=None, dtype=None, out=None, keepdims=False, where=None):
    if where is not None:
        return np.where(where, expand_reduced(g, a, axis, keepdims), 0.0) / expand_reduced(
            np.sum(where, axis=axis, keepdims=keepdims), a, axis, keepdims
        )
    return expand_reduced(g, a, axis, keepdims) / reduced_size(shape_of(a), axis)


def mean_jvp(t, ans, a, axis=None, dtype=None, out=None, keepdims=False, where=None):
    if where is not None:
        return np.mean(t, axis=axis, keepdims=keepdims, where=where)
    return np.mean(t, axis=axis, keepdims=keepdims)


define(np.mean, vjp=(mean_vjp,), jvp=(mean_jvp,))


# --- max / min: the gradient is shared evenly by the elements equal to the result ---------

@primitive
def tie_mask(a, best, like):
    """1 where ``a`` equals ``best`` (its maximum or minimum, broadcast back), else 0, in the
    dtype of ``like`` (the gradient's: a boolean or int64 count would promote float32
    gradients to float64).  One comparison and one cast, where ``np.where`` of ``ones_like``
    and ``zeros_like`` made four arrays."""
    return np.equal(a, best).astype(np.asarray(like).dtype)


nondifferentiable(tie_mask)


def max_vjp(g, ans, a, axis=None, out=None, keepdims=False, initial=None, where=None):
    ties = tie_mask(a, expand_reduced(ans, a, axis, keepdims), a)
    count = np.sum(ties, axis=axis, keepdims=keepdims)
    return ties * expand_reduced(g / count, a, axis, keepdims)


def max_jvp(t, ans, a, axis=None, out=None, keepdims=False, initial=None, where=None):
    ties = tie_mask(a, expand_reduced(ans, a, axis, keepdims), t)
    return np.sum(t * ties, axis=axis, keepdims=keepdims) / np.sum(ties, axis=axis, keepdims=keepdims)


define((np.max, np.amax), vjp=(max_vjp,), jvp=(max_jvp,))
define((np.min, np.amin), vjp=(max_vjp,), jvp=(max_jvp,))


# --- prod -------------------------------------------------------------------------------

def prod_vjp(g, ans, a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    zero = a == 0
    safe = np.where(zero, 1.0, a)
    sole_zero = np.sum(zero, axis=axis, keepdims=True) == 1
    others = np.where(
        zero,
        np.where(sole_zero, np.prod(safe, axis=axis, keepdims=True), 0.0),
        expand_reduced(ans, a, axis, keepdims) / safe,
    )
    return expand_reduced(g, a, axis, keepdims) * others


def prod_jvp(t, ans, a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    zero = a == 0
    safe = np.where(zero, 1.0, a)
    sole_zero = np.sum(zero, axis=axis, keepdims=True) == 1
    others = np.where(
        zero,
        np.where(sole_zero, np.prod(safe, axis=axis, keepdims=True), 0.0),
        expand_reduced(ans, a, axis, keepdims) / safe,
    )
    return np.sum(t * others, axis=axis, keepdims=keepdims)


define(np.prod, vjp=(prod_vjp,), jvp=(prod_jvp,))


# --- var / std ---
# Where the deviation is 0 (one element, or all equal) every centered value is 0 too: the
# gradient is 0 there (a subgradient of the corner), not 0 / 0.-----------------------------------------------------------------------

# var and std of complex a are real (mean |a - mean|^2): the cotangent has conj(centred) and
# the tangent is a real part.  ``centred_conj`` does nothing more for real a.
def centred_conj(a, axis):
    return conj_if_complex(a - np.mean(a, axis=axis, keepdims=True))


def conj_if_complex(x):
    """conj(x), without numpy's copy of a real x."""
    return np.conj(x) if np.iscomplexobj(x) else x


def var_vjp(g, ans, a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    centered = centred_conj(a, axis)
    return expand_reduced(g, a, axis, keepdims) * centered * (2.0 / (reduced_size(shape_of(a), axis) - ddof))


def var_jvp(t, ans, a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    centered = centred_conj(a, axis)
    return np.real(np.sum(t * centered, axis=axis, keepdims=keepdims)) * (2.0 / (reduced_size(shape_of(a), axis) - ddof))


define(np.var, vjp=(var_vjp,), jvp=(var_jvp,))


def std_vjp(g, ans, a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    centered = centred_conj(a, axis)
    scale = expand_reduced(g / np.where(ans == 0, 1.0, ans), a, axis, keepdims) / (reduced_size(shape_of(a), axis) - ddof)
    return scale * centered


def std_jvp(t, ans, a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    centered = centred_conj(a, axis)
    return np.real(np.sum(t * centered, axis=axis, keepdims=keepdims)) / (
        np.where(ans == 0, 1.0, ans) * (reduced_size(shape_of(a), axis) - ddof))


define(np.std, vjp=(std_vjp,), jvp=(std_jvp,))


# --- cumsum -----------------------------------------------------------------------------
# The adjoint of a running sum is the running sum from the other end.

def cumsum_vjp(g, ans, a, axis=None, dtype=None, out=None):
    if axis is None:
        return np.reshape(np.flip(np.cumsum(np.flip(g))), shape_of(a))
    return np.flip(np.cumsum(np.flip(g, axis), axis), axis)


def cumsum_jvp(t, ans, a, axis=None, dtype=None, out=None):
    return np.cumsum(t, axis)


define(np.cumsum, vjp=(cumsum_vjp,), jvp=(cumsum_jvp,))
