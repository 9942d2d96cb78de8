"""Rules for contractions over matrices: ``trace``, ``diagonal``, ``einsum`` and ``np.linalg.multi_dot``."""

import numpy as np

from ..registry import define
from ..support import dtype_of, item_array, items_like, scatter_add, shape_of, unbroadcast
from .matrix import T, as_matrix_scalar


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
# letters first.  A letter repeated within one operand (a diagonal or trace) gets an identity
# matrix per repeat (diagonal_letters).

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
    shape = shape_of(operands[k])
    target, deltas = diagonal_letters(ins[k], shape, set("".join(ins)) | set(out), dtype_of(g))
    others = [o for j, o in enumerate(operands) if j != k] + [d for _, d in deltas]
    other_subs = [s for j, s in enumerate(ins) if j != k] + [s for s, _ in deltas]
    present = set(out).union(*[set(s) for s in other_subs])
    kept = "".join(c for c in target if c in present)
    r = np.einsum(",".join([out] + other_subs) + "->" + kept, g, *others)
    if kept != target:
        r = np.reshape(r, tuple(shape[i] if c in present else 1 for i, c in enumerate(target)))
        r = np.broadcast_to(r, shape)
    return unbroadcast(r, operands[k])


def diagonal_letters(subs, shape, used, dtype):
    """An operand's subscripts with each repeat of a letter renamed, and the identity matrices
    that tie the renamed letters back: 'ii' -> ('iA', [('iA', eye)]).  The gradient of a
    diagonal is zero off it, so the operand's gradient is the einsum onto the renamed letters
    with the identities as extra operands (still an einsum without repeats: second order too)."""
    spare = (c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" if c not in used)
    seen, renamed, deltas = set(), [], []
    for c, n in zip(subs, shape):
        if c in seen:
            fresh = next(spare)
            deltas.append((c + fresh, np.eye(n, dtype=dtype)))
            c = fresh
        seen.add(c)
        renamed.append(c)
    return "".join(renamed), deltas


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


# einsum_vjp_k's own rules (second order and beyond) are in einsum_higher.py.


# --- multi_dot: the i-th gradient is (M_0...M_{i-1})^T g (M_{i+1}...M_last)^T ------------------------

def chain_matrices(arrays):
    """The arrays as matrices (a 1-d first one is a row, a 1-d last one a column)."""
    mats = list(arrays)
    if np.ndim(mats[0]) == 1:
        mats[0] = np.expand_dims(mats[0], 0)
    if np.ndim(mats[-1]) == 1:
        mats[-1] = np.expand_dims(mats[-1], -1)
    return mats


def chain_products(mats):
    """(lefts, rights): lefts[i] = M_0 ... M_{i-1} and rights[i] = M_{i+1} ... M_last (None if empty)."""
    k = len(mats)
    lefts = [None]
    for i in range(1, k):
        lefts.append(mats[0] if i == 1 else np.matmul(lefts[-1], mats[i - 1]))
    rights = [None]
    for i in range(k - 2, -1, -1):
        rights.append(mats[-1] if i == k - 2 else np.matmul(mats[i + 1], rights[-1]))
    return lefts, rights[::-1]


def multi_dot_vjp(g, ans, arrays, out=None):
    mats = chain_matrices(arrays)
    g2 = np.reshape(g, (shape_of(mats[0])[0], shape_of(mats[-1])[1]))
    lefts, rights = chain_products(mats)
    grads = []
    for i in range(len(mats)):
        gi = g2 if lefts[i] is None else np.matmul(T(lefts[i]), g2)
        gi = gi if rights[i] is None else np.matmul(gi, T(rights[i]))
        grads.append(np.reshape(gi, shape_of(arrays[i])))
    return tuple(grads)


def multi_dot_jvp(t, ans, arrays, out=None):
    mats = chain_matrices(arrays)
    lefts, rights = chain_products(mats)
    total = 0
    for i, ti in enumerate(chain_matrices(t)):
        term = ti if lefts[i] is None else np.matmul(lefts[i], ti)
        total = total + (term if rights[i] is None else np.matmul(term, rights[i]))
    return np.reshape(total, shape_of(ans))


define(np.linalg.multi_dot, vjp=(multi_dot_vjp,), jvp=(multi_dot_jvp,))


# Rules for multi_dot_vjp (second order: hvp, grad of grad, nested tapes).  multi_dot_vjp(g; M) is
# linear in g, and its item i, L_i^T g R_i^T, is linear in each M_j (j != i).  Its adjoint in g
# takes the items' cotangents H to sum_i L_i H_i R_i, multi_dot's own tangent; in the matrices,
# <H, multi_dot_vjp(g; M)> = <g, sum_i multi_dot(M with H_i at i)> gives cross_terms below, and the
# tangent along matrices T is the same sum with T in place of H.

def with_operand(operands, j, value):
    """``operands`` with item ``j`` replaced by ``value``."""
    return [value if i == j else o for i, o in enumerate(operands)]


def cross_terms(g, xs, arrays):
    """Item a: the sum over b != a of multi_dot_vjp(g; arrays with xs[b] at b)[a]."""
    out = [0] * len(arrays)
    for b in range(len(arrays)):
        parts = multi_dot_vjp(g, None, with_operand(arrays, b, xs[b]))
        out = [o if a == b else o + p for a, (o, p) in enumerate(zip(out, parts))]
    return tuple(out)


def multi_dot_vjp_vjp_g(h, res, g, ans, arrays, out=None):
    return multi_dot_jvp(items_like(h, arrays), g, arrays)


def multi_dot_vjp_vjp_arrays(h, res, g, ans, arrays, out=None):
    return cross_terms(g, items_like(h, arrays), arrays)


# the tangents of a tuple are item_arrays: the two terms add item by item (tuples would concatenate)
def multi_dot_vjp_jvp_g(t, res, g, ans, arrays, out=None):
    return item_array(multi_dot_vjp(t, ans, arrays))


def multi_dot_vjp_jvp_arrays(t, res, g, ans, arrays, out=None):
    return item_array(cross_terms(g, t, arrays))


define(multi_dot_vjp, vjp=(multi_dot_vjp_vjp_g, None, multi_dot_vjp_vjp_arrays),
       jvp=(multi_dot_vjp_jvp_g, None, multi_dot_vjp_jvp_arrays))
