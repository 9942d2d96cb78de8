"""Primitives whose outputs carry no gradient: TF gives None through them.

Comparisons, rounding, arg-reductions, logical and bit operations, predicates, ``*_like``
constructors and floor division (TF's FloorDiv gradient is None).  Floor-mod is *not* here:
TF differentiates it (d/dx = 1, d/dy = -floor(x / y)); its rule is in ``elementwise``.
"""

import builtins
import math
import operator

import numpy as np

from .registry import nondifferentiable, primitive

nondifferentiable(
    # comparisons
    np.equal, np.not_equal, np.less, np.less_equal, np.greater, np.greater_equal,
    operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge,
    np.isclose, np.allclose, np.array_equal,
    # rounding (np.round and np.around are distinct functions in numpy 2)
    np.floor, np.ceil, np.round, np.around, np.rint, np.trunc, np.fix,
    builtins.round, math.floor, math.ceil, math.trunc,
    # integer division
    np.floor_divide, operator.floordiv,
    # arg-reductions, sorting positions, searches
    np.argmax, np.argmin, np.argsort, np.nonzero, np.argwhere, np.flatnonzero,
    np.searchsorted, np.digitize, np.count_nonzero,
    # logical and bitwise
    np.logical_and, np.logical_or, np.logical_not, np.logical_xor,
    np.bitwise_and, np.bitwise_or, np.bitwise_xor, np.invert,
    operator.and_, operator.or_, operator.xor, operator.invert, operator.not_,
    np.any, np.all,
    # predicates
    np.isnan, np.isinf, np.isfinite, np.signbit, np.isreal, np.iscomplex,
    # constructors that only read a shape / dtype
    np.zeros_like, np.ones_like, np.empty_like,
    # more positions, counts and integer arithmetic
    np.argpartition, np.lexsort, np.bincount, np.isneginf, np.isposinf, np.iscomplexobj, np.isrealobj,
    np.left_shift, np.right_shift, np.gcd, np.lcm, np.spacing, np.nextafter,
    np.unravel_index, np.ravel_multi_index, np.tril_indices_from, np.triu_indices_from, np.diag_indices_from,
    np.nanargmax, np.nanargmin, np.shape, np.ndim, np.size, np.isnat,
    math.isnan, math.isinf, math.isfinite, math.isclose, math.factorial, math.gcd, math.comb, math.perm,
    math.isqrt, builtins.int, builtins.bool, builtins.len,
)
# numpy's integer and bool scalar types called on values (np.int64(W[:, -1]) as indices): integers
# carry no gradient, as int() does
nondifferentiable(np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
                  np.bool_)
if hasattr(np, "bitwise_count"):
    nondifferentiable(np.bitwise_count)


@primitive
def stop_gradient(x):
    """``x`` as a constant: ``tf.stop_gradient`` in numpy code (on tensors it is not recorded)."""
    return x


nondifferentiable(stop_gradient)
