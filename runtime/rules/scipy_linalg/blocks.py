"""Rules for ``scipy.linalg.block_diag(*arrs)``: linear in each array, whose gradient is its block of
the cotangent.  Like numpy's einsum and max, rules exist for a fixed number of arrays (``MAX``);
more is refused by the transpiler and the tape as for any argument without a rule."""

import numpy as np
import scipy.linalg as _sl

from ..linalg.eigen import real_for_real
from ..registry import define, primitive
from ..support import shape_of


@primitive
def block_diag(*arrs):
    return _sl.block_diag(*arrs)


def block_shape(a):
    """The (rows, columns) of ``a``'s block: scalars are 1 x 1, vectors one row."""
    s = shape_of(a)
    return (1, 1) if len(s) == 0 else (1, s[0]) if len(s) == 1 else s


def block_of(k, g, arrs):
    """The cotangent of ``arrs[k]``: its block of ``g``, in its shape."""
    r = sum(block_shape(a)[0] for a in arrs[:k])
    c = sum(block_shape(a)[1] for a in arrs[:k])
    rows, cols = block_shape(arrs[k])
    return real_for_real(np.reshape(g[r:r + rows, c:c + cols], shape_of(arrs[k])), arrs[k])


def with_tangent(k, t, arrs):
    """``block_diag`` of zeros but for ``arrs[k]``'s tangent ``t``."""
    return block_diag(*[t if j == k else np.zeros(shape_of(a)) for j, a in enumerate(arrs)])


def block_diag_vjp_0(g, ans, *arrs):
    return block_of(0, g, arrs)


def block_diag_vjp_1(g, ans, *arrs):
    return block_of(1, g, arrs)


def block_diag_vjp_2(g, ans, *arrs):
    return block_of(2, g, arrs)


def block_diag_vjp_3(g, ans, *arrs):
    return block_of(3, g, arrs)


def block_diag_vjp_4(g, ans, *arrs):
    return block_of(4, g, arrs)


def block_diag_vjp_5(g, ans, *arrs):
    return block_of(5, g, arrs)


def block_diag_jvp_0(t, ans, *arrs):
    return with_tangent(0, t, arrs)


def block_diag_jvp_1(t, ans, *arrs):
    return with_tangent(1, t, arrs)


def block_diag_jvp_2(t, ans, *arrs):
    return with_tangent(2, t, arrs)


def block_diag_jvp_3(t, ans, *arrs):
    return with_tangent(3, t, arrs)


def block_diag_jvp_4(t, ans, *arrs):
    return with_tangent(4, t, arrs)


def block_diag_jvp_5(t, ans, *arrs):
    return with_tangent(5, t, arrs)


MAX = 6
define((_sl.block_diag, block_diag),
       vjp=(block_diag_vjp_0, block_diag_vjp_1, block_diag_vjp_2, block_diag_vjp_3, block_diag_vjp_4,
            block_diag_vjp_5),
       jvp=(block_diag_jvp_0, block_diag_jvp_1, block_diag_jvp_2, block_diag_jvp_3, block_diag_jvp_4,
            block_diag_jvp_5))
