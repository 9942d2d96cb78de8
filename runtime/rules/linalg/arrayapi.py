"""numpy 2's other array-API names in ``np.linalg`` (``vecdot``, ``trace``, ``diagonal``, ``cross``,
``matrix_transpose``, ``matmul``, ``outer``): each the rule of the function it computes."""

import numpy as np

from ..forms import jvp_like
from ..registry import define, lookup
from ..support import unbroadcast
from .matrix import refuse_complex
from .products import diagonal_vjp, trace_vjp


def vecdot_vjp_x1(g, ans, x1, x2, axis=-1):
    refuse_complex(x1, "np.linalg.vecdot")
    return unbroadcast(np.expand_dims(g, axis) * x2, x1)


def vecdot_vjp_x2(g, ans, x1, x2, axis=-1):
    refuse_complex(x1, "np.linalg.vecdot")
    return unbroadcast(np.expand_dims(g, axis) * x1, x2)


def vecdot_jvp_x1(t, ans, x1, x2, axis=-1):
    return np.linalg.vecdot(t, x2, axis=axis)


def vecdot_jvp_x2(t, ans, x1, x2, axis=-1):
    return np.linalg.vecdot(x1, t, axis=axis)


def linalg_trace_vjp(g, ans, x, offset=0, dtype=None):
    return trace_vjp(g, ans, x, offset, -2, -1)


def linalg_trace_jvp(t, ans, x, offset=0, dtype=None):
    return np.linalg.trace(t, offset=offset)


def linalg_diagonal_vjp(g, ans, x, offset=0):
    return diagonal_vjp(g, ans, x, offset, -2, -1)


def linalg_diagonal_jvp(t, ans, x, offset=0):
    return np.linalg.diagonal(t, offset=offset)


def cross_vjp_x1(g, ans, x1, x2, axis=-1):       # d <g, a x b> / da = b x g
    return unbroadcast(np.linalg.cross(x2, g, axis=axis), x1)


def cross_vjp_x2(g, ans, x1, x2, axis=-1):       # ... / db = g x a
    return unbroadcast(np.linalg.cross(g, x1, axis=axis), x2)


def cross_jvp_x1(t, ans, x1, x2, axis=-1):
    return np.linalg.cross(t, x2, axis=axis)


def cross_jvp_x2(t, ans, x1, x2, axis=-1):
    return np.linalg.cross(x1, t, axis=axis)


def matrix_transpose_vjp(g, ans, x):
    return np.linalg.matrix_transpose(g)


define(np.linalg.vecdot, vjp=(vecdot_vjp_x1, vecdot_vjp_x2), jvp=(vecdot_jvp_x1, vecdot_jvp_x2))
define(np.linalg.trace, vjp=(linalg_trace_vjp,), jvp=(linalg_trace_jvp,))
define(np.linalg.diagonal, vjp=(linalg_diagonal_vjp,), jvp=(linalg_diagonal_jvp,))
define(np.linalg.cross, vjp=(cross_vjp_x1, cross_vjp_x2), jvp=(cross_jvp_x1, cross_jvp_x2))
define(np.linalg.matrix_transpose, vjp=(matrix_transpose_vjp,), jvp=jvp_like(matrix_transpose_vjp))
# np.linalg.matmul and np.linalg.outer compute what np.matmul and np.outer do (on 1-d operands for
# outer): the same rules
define(np.linalg.matmul, vjp=lookup(np.matmul).vjps, jvp=lookup(np.matmul).jvps)
define(np.linalg.outer, vjp=lookup(np.outer).vjps, jvp=lookup(np.outer).jvps)
