"""``tf.math``: elementwise math, reductions, comparisons (gradients for the differentiable ones)."""

from .ops.math_ops import (  # noqa: F401
    abs, acos, acosh, add, add_n, argmax, argmin, asin, asinh, atan, atan2, atanh, ceil, cos, cosh,
    count_nonzero, cumsum, divide, divide_no_nan, equal, erf, erfc, exp, expm1, floor, floordiv,
    floormod, greater, greater_equal, is_finite, is_inf, is_nan, l2_normalize, less, less_equal, log,
    log1p, log_sigmoid, logical_and, logical_not, logical_or, logical_xor, maximum, minimum, mod,
    multiply, negative, not_equal, pow, reciprocal, reduce_all, reduce_any, reduce_euclidean_norm,
    reduce_logsumexp, reduce_max, reduce_mean, reduce_min, reduce_prod, reduce_std, reduce_sum,
    reduce_variance, rint, round, rsqrt, sigmoid, sign, sin, sinh, softplus, softsign, sqrt, square,
    squared_difference, subtract, tan, tanh, truediv, xlogy,
)
from .nn import softmax, log_softmax  # noqa: F401
from .ops.math_ops import floor_div as floor_div  # noqa: F401
from .ops.math_extra import (  # noqa: F401
    cumprod, multiply_no_nan, scalar_mul, segment_max, segment_mean, segment_min, segment_sum, top_k,
    unsorted_segment_max, unsorted_segment_mean, unsorted_segment_min, unsorted_segment_sum,
)
from .ops.array_extra import sort, argsort  # noqa: F401
from .ops.math_special import (  # noqa: F401
    angle, complex, bessel_i0, bessel_i0e, bessel_i1, bessel_i1e, conj, digamma, imag, lgamma, polygamma, real,
    reciprocal_no_nan, xdivy, xlog1py,
)
