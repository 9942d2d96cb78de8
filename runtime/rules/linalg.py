"""Rules for linear algebra: inv, det, solve, cholesky, trace, diagonal, einsum.

Matrix functions work on the last two axes and broadcast over leading (batch) axes, as
numpy's and TensorFlow's do.  ``T(x)`` below is ``np.swapaxes(x, -1, -2)``.
"""

import numpy as np

from .registry import define
from .support import dtype_of, scatter_add, shape_of, unbroadcast


def T(x):
    """Swap the last two axes (matrix transpose over a batch)."""
    return np.swapaxes(x, -1, -2)


def as_matrix_scalar(g):
    """A batch of scalars ``g`` shaped [..., 1, 1] so it broadcasts against matrices."""
    return np.expand_dims(np.expand_dims(g, -1), -1)


# --- inverse: d(A^-1) = -A^-1 dA A^-1 ----------------------------------------------------

def inv_vjp(g, ans, a):
    return -np.matmul(np.matmul(T(ans), g), T(ans))


def inv_jvp(t, ans, a):
    return -np.matmul(np.matmul(ans, t), ans)


define(np.linalg.inv, vjp=(inv_vjp,), jvp=(inv_jvp,))


# --- determinant: d det(A) = det(A) tr(A^-1 dA) --------------------------------------------

def det_vjp(g, ans, a):
    return as_matrix_scalar(g * ans) * T(np.linalg.inv(a))


def det_jvp(t, ans, a):
    return ans * np.trace(np.linalg.solve(a, t), axis1=-2, axis2=-1)


define(np.linalg.det, vjp=(det_vjp,), jvp=(det_jvp,))


# --- solve: x = A^-1 b;  b-bar = A^-T g,  A-bar = -b-bar x^T ---------------------------------

def solve_vjp_a(g, ans, a, b):
    gb = np.linalg.solve(T(a), g)
    if np.ndim(b) == 1:
        return -np.multiply(np.expand_dims(gb, -1), np.expand_dims(ans, -2))
    return unbroadcast(-np.matmul(gb, T(ans)), a)


def solve_vjp_b(g, ans, a, b):
    return unbroadcast(np.linalg.solve(T(a), g), b)


def solve_jvp_a(t, ans, a, b):
    if np.ndim(b) == 1:
        return -np.linalg.solve(a, np.matmul(t, ans))
    return -np.linalg.solve(a, np.matmul(t, ans))


def solve_jvp_b(t, ans, a, b):
    return np.linalg.solve(a, t)


define(np.linalg.solve, vjp=(solve_vjp_a, solve_vjp_b), jvp=(solve_jvp_a, solve_jvp_b))


# --- Cholesky: A = L L^T (TensorFlow's symmetric gradient) ---------------------------------

def lower_half_mask(n, dtype):
    """Ones strictly below the diagonal, one half on it, zeros above (a constant)."""
    return (np.tril(np.ones((n, n)), -1) + 0.5 * np.eye(n)).astype(dtype)


def cholesky_vjp(g, ans, a):
    n = shape_of(a)[-1]
    l_inv = np.linalg.inv(ans)
    middle = np.matmul(T(ans), g) * lower_half_mask(n, dtype_of(a))
    grad_a = np.matmul(np.matmul(T(l_inv), middle), l_inv)
    return 0.5 * (grad_a + T(grad_a))


def cholesky_jvp(t, ans, a):
    n = shape_of(a)[-1]
    l_inv = np.linalg.inv(ans)
    phi = np.matmul(np.matmul(l_inv, t), T(l_inv))
    mask = lower_half_mask(n, dtype_of(a))
    return np.matmul(ans, phi * mask)


define(np.linalg.cholesky, vjp=(cholesky_vjp,), jvp=(cholesky_jvp,))


# --- trace and diagonal over the last two axes --------------------------------------------

def trace_vjp(g, ans, a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    s = shape_of(a)
    eye = np.eye(s[axis1], s[axis2], k=offset, dtype=dtype_of(g))
    full = as_matrix_scalar(g) * eye
    return np.moveaxis(full, (-2, -1), (axis1, axis2))


def trace_jvp(t, ans, a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    return np.trace(t, offset=offset, axis1=axis1, axis2=axis2)


define(np.trace, vjp=(trace_vjp,), jvp=(trace_jvp,))


def diagonal_index(n, m, offset):
    """Row and column indices of the ``offset`` diagonal of an n x m matrix."""
    k = max(0, min(n - max(0, -offset), m - max(0, offset)))
    rows = np.arange(k) + max(0, -offset)
    return rows, rows + offset


def diagonal_vjp(g, ans, a, offset=0, axis1=0, axis2=1):
    s = shape_of(a)
    nd = len(s)
    moved = tuple(d for i, d in enumerate(s) if i not in (axis1 % nd, axis2 % nd)) + (s[axis1], s[axis2])
    rows, cols = diagonal_index(s[axis1], s[axis2], offset)
    full = scatter_add(g, np.empty(moved, dtype=np.int8), (Ellipsis, rows, cols))
    return np.moveaxis(full, (-2, -1), (axis1 % nd, axis2 % nd))


def diagonal_jvp(t, ans, a, offset=0, axis1=0, axis2=1):
    return np.diagonal(t, offset=offset, axis1=axis1, axis2=axis2)


define(np.diagonal, vjp=(diagonal_vjp,), jvp=(diagonal_jvp,))


# --- einsum -------------------------------------------------------------------------------
# Each operand's gradient is another einsum: the output gradient contracted with the other
# operands onto the operand's own subscripts.  Letters that occur only in that operand were
# summed away, so the gradient is broadcast along them.  Ellipses are spelled out with unused
# letters first.  Repeated letters within one operand (diagonals) are not supported.

def einsum_parse(subscripts, shapes):
    """(input subscripts, output subscripts) with '...' replaced by explicit letters."""
    spec = subscripts.replace(" ", "")
    if "->" in spec:
        lhs, out = spec.split("->")
    else:
        lhs, out = spec, None
    ins = lhs.split(",")
    used = set(spec)
    spare = [c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" if c not in used]
    n_ell = max([len(s) - (len(i) - 3) for i, s in zip(ins, shapes) if "..." in i] or [0])
    ell = "".join(spare[:n_ell])
    expanded = []
    for i, s in zip(ins, shapes):
        if "..." in i:
            k = len(s) - (len(i) - 3)
            i = i.replace("...", ell[n_ell - k:])
        expanded.append(i)
    if out is None:
        counts = {}
        for i in expanded:
            for c in i:
                counts[c] = counts.get(c, 0) + 1
        out = ell + "".join(sorted(c for c, n in counts.items() if n == 1 and c not in ell))
    else:
        out = out.replace("...", ell)
    return expanded, out


def einsum_operand_vjp(k, g, subscripts, operands):
    """The gradient of ``np.einsum(subscripts, *operands)`` for operand ``k``."""
    ins, out = einsum_parse(subscripts, [shape_of(o) for o in operands])
    target = ins[k]
    if len(set(target)) != len(target):
        raise NotImplementedError(f"einsum gradient for repeated subscripts {target!r} (a diagonal)")
    others = [o for j, o in enumerate(operands) if j != k]
    other_subs = [s for j, s in enumerate(ins) if j != k]
    present = set(out).union(*[set(s) for s in other_subs])
    kept = "".join(c for c in target if c in present)
    r = np.einsum(",".join([out] + other_subs) + "->" + kept, g, *others)
    shape = shape_of(operands[k])
    if kept != target:
        r = np.reshape(r, tuple(shape[i] if c in present else 1 for i, c in enumerate(target)))
        r = np.broadcast_to(r, shape)
    return unbroadcast(r, operands[k])


def einsum_vjp_0(g, ans, subscripts, *operands, **kwargs):
    return einsum_operand_vjp(0, g, subscripts, operands)


def einsum_vjp_1(g, ans, subscripts, *operands, **kwargs):
    return einsum_operand_vjp(1, g, subscripts, operands)


def einsum_vjp_2(g, ans, subscripts, *operands, **kwargs):
    return einsum_operand_vjp(2, g, subscripts, operands)


def einsum_vjp_3(g, ans, subscripts, *operands, **kwargs):
    return einsum_operand_vjp(3, g, subscripts, operands)


def einsum_operand_jvp(k, t, subscripts, operands):
    """Replace operand ``k`` by its tangent: einsum is linear in each operand."""
    return np.einsum(subscripts, *[t if j == k else o for j, o in enumerate(operands)])


def einsum_jvp_0(t, ans, subscripts, *operands, **kwargs):
    return einsum_operand_jvp(0, t, subscripts, operands)


def einsum_jvp_1(t, ans, subscripts, *operands, **kwargs):
    return einsum_operand_jvp(1, t, subscripts, operands)


def einsum_jvp_2(t, ans, subscripts, *operands, **kwargs):
    return einsum_operand_jvp(2, t, subscripts, operands)


def einsum_jvp_3(t, ans, subscripts, *operands, **kwargs):
    return einsum_operand_jvp(3, t, subscripts, operands)


define(
    np.einsum,
    vjp=(None, einsum_vjp_0, einsum_vjp_1, einsum_vjp_2, einsum_vjp_3),
    jvp=(None, einsum_jvp_0, einsum_jvp_1, einsum_jvp_2, einsum_jvp_3),
)
