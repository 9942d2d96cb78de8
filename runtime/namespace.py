"""The ``tf`` namespace: every name ``import runtime as tf`` offers at its top level, imported from
where it lives.  ``runtime/__init__`` loads this module on the first use of one of these names
(``tf.constant``, ``tf.float32``, ``from runtime import GradientTape``...) and copies them all.
``tf.keras``, ``tf.linalg``, ``tf.data``... are not here: each loads on its own first use.
"""

from .engine import errors, nest  # noqa: F401
from .engine.custom_gradient import custom_gradient, recompute_grad  # noqa: F401
from .engine.dtypes import (  # noqa: F401
    DType, as_dtype, float16, float32, float64, half, double, int8, int16, int32, int64, uint8,
    complex64, complex128, bool, string,
)
from .engine.indexed_slices import IndexedSlices  # noqa: F401
from .engine.shapes import TensorShape  # noqa: F401
from .engine.tape import GradientTape, UnconnectedGradients  # noqa: F401
from .engine.tensor import Tensor, constant  # noqa: F401
from .engine.variable import Variable  # noqa: F401
from .ops.math_ops import (  # noqa: F401
    convert_to_tensor, is_tensor, cast, saturate_cast, identity, stop_gradient,
    zeros, ones, zeros_like, ones_like, fill, eye, range, linspace,
    shape, size, rank, reshape, transpose, expand_dims, squeeze, concat, stack, unstack, split,
    tile, broadcast_to, pad, reverse, gather, gather_nd, boolean_mask, where, one_hot,
    reduce_sum, reduce_mean, reduce_max, reduce_min, reduce_prod, reduce_logsumexp, reduce_any,
    reduce_all, argmax, argmin, cumsum,
    matmul, tensordot, einsum, add, add_n, subtract, multiply, divide, truediv, floordiv, pow,
    square, sqrt, exp, log, abs, negative, maximum, minimum, sign, round, floor, ceil, sin, cos,
    tan, tanh, sigmoid, equal, not_equal, less, less_equal, greater, greater_equal,
    logical_and, logical_or, logical_not,
    clip_by_value, clip_by_norm, clip_by_global_norm, norm,
    acos, acosh, asin, asinh, atan, atan2, atanh, cosh, sinh,
)
from .ops.math_extra import truncatediv, truncatemod, scalar_mul  # noqa: F401
from .ops.array_extra import (  # noqa: F401
    sort, argsort, repeat, roll, sequence_mask, slice, scatter_nd, tensor_scatter_nd_add, tensor_scatter_nd_update,
)
from .ops.init_ops import constant_initializer, zeros_initializer, ones_initializer  # noqa: F401
from .ops.math_special import complex  # noqa: F401,A001
from .framework.module import Module, name_scope  # noqa: F401
from .framework.printing import print_ as print, get_logger  # noqa: F401,A001
from .framework.function import function, executing_eagerly, TensorSpec, config  # noqa: F401
from . import math, nn  # noqa: F401
from .ops import aliases as _aliases  # noqa: F401  (tf.* names of numpy primitives, for the transpiler)

newaxis = None
