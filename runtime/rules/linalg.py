"""Rules for linear algebra: ``np.linalg`` (inv, det, slogdet, solve, lstsq, pinv, cholesky, qr,
eigh, eig, svd, norm, matrix_power, multi_dot), trace, diagonal, einsum.

Matrix functions work on the last two axes and broadcast over leading (batch) axes, as
numpy's and TensorFlow's do.  ``T(x)`` below is ``np.swapaxes(x, -1, -2)``.

Decompositions return several arrays.  The transpiler differentiates ``w, v = np.linalg.eigh(a)``
with one rule whose cotangent ``g`` is the tuple's (``items_like`` splits it); the tape records
one array per op, so on tensors each decomposition runs as one *packed* primitive (all outputs
stacked in one array, e.g. ``eigh_packed``) whose items are read by recorded slices
(``COMPOSITES``).  Both share the same core rule (``eigh_grad``, ``svd_grad``, ...), which reads
the outputs the forward computed rather than recomputing the decomposition.

What is refused (a clear error, never a wrong number): eigenvector and singular-vector
gradients at repeated eigenvalues / singular values (the vectors are not unique there),
``np.linalg.eig`` of a matrix that is not real symmetric, ``svd(full_matrices=True)`` of a
non-square matrix, ``svd(hermitian=True)``, ``qr`` of a wide matrix (m < n) and its ``complete``
and ``raw`` modes, complex matrices in the decompositions.  ``pinv`` and ``lstsq`` are
differentiated where the rank is locally constant (full rank).
"""

import numpy as np

from .registry import COMPOSITES, define, lookup, nondifferentiable, primitive
from .fft import real_part
from .support import dtype_of, items_like, scatter_add, shape_of, unbroadcast


@primitive
def T(x):
    """Swap the last two axes (matrix transpose over a batch).  A primitive, so gradients the
    transpiler generates with it can be differentiated again."""
    return np.swapaxes(x, -1, -2)


def T_vjp(g, ans, x):
    return T(g)


def T_jvp(t, ans, x):
    return T(t)


@primitive
def as_matrix_scalar(g):
    """A batch of scalars ``g`` shaped [..., 1, 1] so it broadcasts against matrices."""
    return np.expand_dims(np.expand_dims(g, -1), -1)


def as_matrix_scalar_vjp(g, ans, x):
    return np.reshape(g, shape_of(x))


def as_matrix_scalar_jvp(t, ans, x):
    return as_matrix_scalar(t)


define(T, vjp=(T_vjp,), jvp=(T_jvp,))
define(as_matrix_scalar, vjp=(as_matrix_scalar_vjp,), jvp=(as_matrix_scalar_jvp,))


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
    if np.ndim(b) == 1:     # a vector right-hand side (numpy >= 2: only a 1-d b is one)
        gb = np.linalg.solve(T(a), np.expand_dims(g, -1))
        return unbroadcast(-np.matmul(gb, np.expand_dims(ans, -2)), a)
    return unbroadcast(-np.matmul(np.linalg.solve(T(a), g), T(ans)), a)


def solve_vjp_b(g, ans, a, b):
    if np.ndim(b) == 1:
        return unbroadcast(np.linalg.solve(T(a), np.expand_dims(g, -1))[..., 0], b)
    return unbroadcast(np.linalg.solve(T(a), g), b)


def solve_jvp_a(t, ans, a, b):
    if np.ndim(b) == 1:
        return -np.linalg.solve(a, np.matmul(t, np.expand_dims(ans, -1)))[..., 0]
    return -np.linalg.solve(a, np.matmul(t, ans))


def solve_jvp_b(t, ans, a, b):
    return np.linalg.solve(a, t)


define(np.linalg.solve, vjp=(solve_vjp_a, solve_vjp_b), jvp=(solve_jvp_a, solve_jvp_b))


# --- Cholesky: A = L L^T (TensorFlow's symmetric gradient) ---------------------------------

def lower_half_mask(n, dtype):
    """Ones strictly below the diagonal, one half on it, zeros above (a constant)."""
    return (np.tril(np.ones((n, n)), -1) + 0.5 * np.eye(n)).astype(dtype)


def cholesky_vjp(g, ans, a):
    refuse_complex(a, "np.linalg.cholesky")
    n = shape_of(a)[-1]
    l_inv = np.linalg.inv(ans)
    middle = np.matmul(T(ans), g) * lower_half_mask(n, dtype_of(a))
    grad_a = np.matmul(np.matmul(T(l_inv), middle), l_inv)
    return 0.5 * (grad_a + T(grad_a))


def cholesky_jvp(t, ans, a):
    refuse_complex(a, "np.linalg.cholesky")
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


# === decompositions and the rest of np.linalg =================================================

# --- helpers the rules below share ------------------------------------------------------------

def value_of(x):
    """The numpy value of an array or tensor, read without recording (for checks only)."""
    read = getattr(x, "numpy", None)
    return np.asarray(read() if read is not None else x)


def any_nonzero(g):
    """Whether a cotangent carries anything (a result the caller never read gets zeros)."""
    return bool(np.any(value_of(g) != 0))


def eye_like(n, x):
    return np.eye(n, dtype=dtype_of(x))


def as_diag(d):
    """A (batch of) diagonal matrices with ``d`` on the diagonal."""
    n = shape_of(d)[-1]
    return np.expand_dims(d, -2) * eye_like(n, d)


def triangle_masks(n, UPLO, dtype):
    """(the triangle numpy reads including the diagonal, the same triangle without it): constants."""
    lower = np.tril(np.ones((n, n)))
    if UPLO.upper() == "U":
        lower = lower.T
    return lower.astype(dtype), (lower - np.eye(n)).astype(dtype)


def from_triangle(s, UPLO):
    """Gradient w.r.t. a matrix that numpy reads through one triangle only (eigh, eigvalsh):
    ``s`` is the gradient w.r.t. the symmetric matrix that triangle stands for."""
    full, strict = triangle_masks(shape_of(s)[-1], UPLO, dtype_of(s))
    return s * full + T(s) * strict


def to_symmetric(t, UPLO):
    """The symmetric matrix that the ``UPLO`` triangle of ``t`` stands for."""
    full, strict = triangle_masks(shape_of(t)[-1], UPLO, dtype_of(t))
    return t * full + T(t * strict)


def copyltu(m):
    """The symmetric matrix whose lower triangle is ``m``'s."""
    n = shape_of(m)[-1]
    _, strict = triangle_masks(n, "L", dtype_of(m))
    return m * strict + T(m * strict) + m * eye_like(n, m)


def check_distinct(w, what, thing="eigenvalues"):
    """Raise where two of ``w`` are equal: the vectors are not unique there, so they have no derivative."""
    v = np.sort(value_of(w), axis=-1)
    if v.shape[-1] < 2 or v.size == 0:
        return
    scale = max(float(np.max(np.abs(v))), float(np.finfo(v.dtype).tiny))
    gaps = np.diff(v, axis=-1)
    if float(np.min(gaps)) <= 100 * v.shape[-1] * np.finfo(v.dtype).eps * scale:
        i = np.unravel_index(np.argmin(gaps), gaps.shape)
        raise np.linalg.LinAlgError(
            f"{what}: the derivative of the vectors is undefined because two {thing} are equal "
            f"({v[i]!r} and {v[i[:-1] + (i[-1] + 1,)]!r}): the vectors are not unique there. Differentiate "
            f"only the {thing} (np.linalg.eigvalsh, np.linalg.svd(a, compute_uv=False)) or a quantity "
            f"that does not depend on the choice of vectors.")


def inverse_gaps(w, what, thing="eigenvalues"):
    """F[..., i, j] = 1 / (w_j - w_i) off the diagonal and 0 on it (raises where two w are equal)."""
    check_distinct(w, what, thing)
    n = shape_of(w)[-1]
    eye = eye_like(n, w)
    return (1 - eye) / (np.expand_dims(w, -2) - np.expand_dims(w, -1) + eye)


def refuse_complex(x, what):
    """The rules here are for real matrices (a complex one needs conjugate transposes)."""
    if np.iscomplexobj(value_of(x)):
        hint = " (for a vector norm, np.linalg.norm(np.abs(z)) is the same value)" if "norm" in what else ""
        raise NotImplementedError(f"{what}: the derivative for complex input is not supported; write the "
                                  f"computation with real arrays{hint}")


# --- slogdet: (sign, log|det A|);  d log|det A| = tr(A^-1 dA), the sign is piecewise constant -----

def logabsdet_grad(g, a):
    refuse_complex(a, "np.linalg.slogdet")
    return as_matrix_scalar(g) * T(np.linalg.inv(a))


def logabsdet_tangent(t, a):
    refuse_complex(a, "np.linalg.slogdet")
    return np.trace(np.linalg.solve(a, t), axis1=-2, axis2=-1)


def slogdet_vjp(g, ans, a):
    return logabsdet_grad(items_like(g, ans)[1], a)


def slogdet_jvp(t, ans, a):
    return (np.zeros_like(ans[0]), logabsdet_tangent(t, a))


@primitive
def logabsdet(a):
    """``np.linalg.slogdet(a)[1]`` as one array (what the tape records for slogdet)."""
    return np.linalg.slogdet(a)[1]


@primitive
def slogdet_sign(a):
    return np.linalg.slogdet(a)[0]


def logabsdet_vjp(g, ans, a):
    return logabsdet_grad(g, a)


def logabsdet_jvp(t, ans, a):
    return logabsdet_tangent(t, a)


SlogdetResult = type(np.linalg.slogdet(np.eye(1)))


def slogdet_on_tensors(a):
    return SlogdetResult(slogdet_sign(a), logabsdet(a))


define(np.linalg.slogdet, vjp=(slogdet_vjp,), jvp=(slogdet_jvp,))
nondifferentiable(slogdet_sign)
define(logabsdet, vjp=(logabsdet_vjp,), jvp=(logabsdet_jvp,))
COMPOSITES[np.linalg.slogdet] = slogdet_on_tensors


# --- pinv: dX = -X dA X + X X^T dA^T (I - A X) + (I - X A) dA^T X^T X  (X = A+, rank constant) ------

def pinv_grad(g, x, a):
    """The gradient through ``x = pinv(a)`` of a full-rank (locally constant rank) ``a``."""
    m, n = shape_of(a)[-2], shape_of(a)[-1]
    xt = T(x)
    out = -np.matmul(np.matmul(xt, g), xt)
    out = out + np.matmul(np.matmul(eye_like(m, a) - np.matmul(a, x), T(g)), np.matmul(x, xt))
    return out + np.matmul(np.matmul(xt, x), np.matmul(T(g), eye_like(n, a) - np.matmul(x, a)))


def pinv_tangent(t, x, a):
    m, n = shape_of(a)[-2], shape_of(a)[-1]
    out = -np.matmul(np.matmul(x, t), x)
    out = out + np.matmul(np.matmul(x, T(x)), np.matmul(T(t), eye_like(m, a) - np.matmul(a, x)))
    return out + np.matmul(np.matmul(eye_like(n, a) - np.matmul(x, a), T(t)), np.matmul(T(x), x))


def pinv_vjp(g, ans, a, rcond=None, hermitian=False, **kwargs):
    refuse_complex(a, "np.linalg.pinv")
    if hermitian:   # numpy reads the lower triangle only (through eigh)
        return from_triangle(pinv_grad(g, ans, to_symmetric(a, "L")), "L")
    return pinv_grad(g, ans, a)


def pinv_jvp(t, ans, a, rcond=None, hermitian=False, **kwargs):
    refuse_complex(a, "np.linalg.pinv")
    if hermitian:
        return pinv_tangent(to_symmetric(t, "L"), ans, to_symmetric(a, "L"))
    return pinv_tangent(t, ans, a)


define(np.linalg.pinv, vjp=(pinv_vjp,), jvp=(pinv_jvp,))


# --- lstsq: (x, residuals, rank, s) with x = pinv(a) b -------------------------------------------

def check_lstsq(a, b):
    refuse_complex(a, "np.linalg.lstsq")
    refuse_complex(b, "np.linalg.lstsq")
    m, n = shape_of(a)
    if np.ndim(value_of(b)) == 2 and shape_of(b)[1] == 0:
        return
    rank = np.linalg.matrix_rank(value_of(a))
    if rank < min(m, n):
        raise np.linalg.LinAlgError(
            "np.linalg.lstsq: the gradient needs a matrix of full rank (its solution jumps where the "
            f"rank changes); this {m}x{n} matrix has rank {rank}")


def lstsq_grads(gx, gres, gs, ans, a, b):
    """(d a, d b) of ``x, residuals, rank, s = np.linalg.lstsq(a, b)`` given the cotangents."""
    check_lstsq(a, b)
    x = ans[0]
    pa = np.linalg.pinv(a)
    b2 = np.expand_dims(b, -1) if np.ndim(b) == 1 else b
    gx2 = np.expand_dims(gx, -1) if np.ndim(b) == 1 else gx
    x2 = np.expand_dims(x, -1) if np.ndim(b) == 1 else x
    ga = pinv_grad(np.matmul(gx2, T(b2)), pa, a)
    gb = np.matmul(T(pa), gx2)
    if shape_of(ans[1])[0] > 0 and any_nonzero(gres):   # ||b - a x||^2: d = -2 r^T (da x - db)
        r = (b2 - np.matmul(a, x2)) * gres
        ga = ga - 2 * np.matmul(r, T(x2))
        gb = gb + 2 * r
    if any_nonzero(gs):
        u, s, vh = np.linalg.svd(a, full_matrices=False)
        ga = ga + np.matmul(u * np.expand_dims(gs, -2), vh)
    return ga, (np.reshape(gb, shape_of(b)) if np.ndim(b) == 1 else gb)


def lstsq_vjp_a(g, ans, a, b, rcond=None):
    gx, gres, _, gs = items_like(g, ans)
    return lstsq_grads(gx, gres, gs, ans, a, b)[0]


def lstsq_vjp_b(g, ans, a, b, rcond=None):
    gx, gres, _, gs = items_like(g, ans)
    return lstsq_grads(gx, gres, gs, ans, a, b)[1]


def lstsq_tangents(ta, tb, ans, a, b):
    """Tangents of (x, residuals, rank, s) along (ta, tb) (either may be None)."""
    check_lstsq(a, b)
    x, res, rank, s = ans
    pa = np.linalg.pinv(a)
    vec = np.ndim(b) == 1
    x2 = np.expand_dims(x, -1) if vec else x
    dx = 0
    dres = np.zeros_like(res)
    ds = np.zeros_like(s)
    r = np.expand_dims(b, -1) - np.matmul(a, x2) if vec else b - np.matmul(a, x2)
    if ta is not None:
        dx = dx + np.matmul(pinv_tangent(ta, pa, a), np.expand_dims(b, -1) if vec else b)
        dres = dres - 2 * np.sum(r * np.matmul(ta, x2), axis=0) if shape_of(res)[0] > 0 else dres
        u, _, vh = np.linalg.svd(a, full_matrices=False)
        ds = np.sum(np.matmul(T(u), ta) * vh, axis=-1)
    if tb is not None:
        dx = dx + np.matmul(pa, np.expand_dims(tb, -1) if vec else tb)
        dres = dres + 2 * np.sum(r * (np.expand_dims(tb, -1) if vec else tb), axis=0) \
            if shape_of(res)[0] > 0 else dres
    return (np.reshape(dx, shape_of(x)), dres, np.zeros_like(rank), ds)


def lstsq_jvp_a(t, ans, a, b, rcond=None):
    return lstsq_tangents(t, None, ans, a, b)


def lstsq_jvp_b(t, ans, a, b, rcond=None):
    return lstsq_tangents(None, t, ans, a, b)


@primitive
def lstsq_solution(a, b, rcond=None):
    """``np.linalg.lstsq(a, b, rcond)[0]`` (what the tape records for lstsq's solution)."""
    return np.linalg.lstsq(a, b, rcond=rcond)[0]


def lstsq_solution_vjp_a(g, ans, a, b, rcond=None):
    return lstsq_grads(g, 0, 0, (ans, np.zeros(0)), a, b)[0]


def lstsq_solution_vjp_b(g, ans, a, b, rcond=None):
    return lstsq_grads(g, 0, 0, (ans, np.zeros(0)), a, b)[1]


def lstsq_solution_jvp_a(t, ans, a, b, rcond=None):
    check_lstsq(a, b)
    return np.matmul(pinv_tangent(t, np.linalg.pinv(a), a), b)


def lstsq_solution_jvp_b(t, ans, a, b, rcond=None):
    check_lstsq(a, b)
    return np.matmul(np.linalg.pinv(a), t)


def lstsq_on_tensors(a, b, rcond=None):
    """x by one recorded op, residuals and singular values by recorded compositions."""
    x = lstsq_solution(a, b, rcond)
    _, res, rank, _ = np.linalg.lstsq(value_of(a), value_of(b), rcond=rcond)
    if shape_of(res)[0] > 0:
        r = b - np.matmul(a, x)
        res = np.sum(r * r, axis=0, keepdims=np.ndim(value_of(b)) == 1)
    return x, res, rank, np.linalg.svd(a, compute_uv=False)


define(np.linalg.lstsq, vjp=(lstsq_vjp_a, lstsq_vjp_b), jvp=(lstsq_jvp_a, lstsq_jvp_b))
define(lstsq_solution, vjp=(lstsq_solution_vjp_a, lstsq_solution_vjp_b),
       jvp=(lstsq_solution_jvp_a, lstsq_solution_jvp_b))
COMPOSITES[np.linalg.lstsq] = lstsq_on_tensors


# --- eigh (and eig of a real symmetric matrix): A = V diag(w) V^T ----------------------------------
# dw = diag(V^T dA V),  dV = V (F o V^T dA V),  F_ij = 1 / (w_j - w_i).  numpy's eigh reads one
# triangle of A only, so its gradient lands in that triangle (as TensorFlow's does); eig reads all.

def eigh_grad(gw, gv, w, v, UPLO="L"):
    """The gradient w.r.t. ``a`` of ``w, v = eigh(a)``."""
    refuse_complex(v, "np.linalg.eigh")
    inner = as_diag(gw)
    if any_nonzero(gv):
        inner = inner + inverse_gaps(w, "np.linalg.eigh") * np.matmul(T(v), gv)
    return from_triangle(np.matmul(np.matmul(v, inner), T(v)), UPLO)


def eigh_tangent(t, w, v, UPLO="L"):
    """(dw, dv) of ``w, v = eigh(a)`` along ``t``."""
    refuse_complex(v, "np.linalg.eigh")
    p = np.matmul(np.matmul(T(v), to_symmetric(t, UPLO)), v)
    dv = np.matmul(v, inverse_gaps(w, "np.linalg.eigh") * p)
    return np.diagonal(p, axis1=-2, axis2=-1), dv


# eig reads all of a, so it is differentiated with the formulas for a general matrix with real,
# distinct eigenvalues and unit-norm eigenvectors (V^-1 where eigh has V^T, and the columns kept
# at unit length).  At a symmetric matrix they reduce to eigh's; written generally, their own
# derivative (second order) is right in non-symmetric directions too.

def eig_grad(gw, gv, w, v):
    inner = as_diag(gw)
    if any_nonzero(gv):
        gv = gv - v * np.sum(v * gv, axis=-2, keepdims=True)       # the unit-norm constraint
        inner = inner + inverse_gaps(w, "np.linalg.eig") * np.matmul(T(v), gv)
    vinv = np.linalg.inv(v)
    return np.matmul(np.matmul(T(vinv), inner), T(v))


def eig_tangent(t, w, v):
    p = np.matmul(np.matmul(np.linalg.inv(v), t), v)
    dv = np.matmul(v, inverse_gaps(w, "np.linalg.eig") * p)
    dv = dv - v * np.sum(v * dv, axis=-2, keepdims=True)
    return np.diagonal(p, axis1=-2, axis2=-1), dv


def eigh_vjp(g, ans, a, UPLO="L"):
    gw, gv = items_like(g, ans)
    return eigh_grad(gw, gv, ans[0], ans[1], UPLO)


def eigh_jvp(t, ans, a, UPLO="L"):
    return eigh_tangent(t, ans[0], ans[1], UPLO)


def pack_rows(first, rest):
    """One array from a row vector (batch) and a matrix (batch): ``first`` becomes row 0."""
    return np.concatenate([np.expand_dims(first, -2), rest], axis=-2)


@primitive
def eigh_packed(a, UPLO="L"):
    """``w, v = np.linalg.eigh(a)`` as one array: row 0 is w, the rest is v (one recorded op)."""
    w, v = np.linalg.eigh(a, UPLO)
    return pack_rows(w, v)


def eigh_packed_vjp(g, ans, a, UPLO="L"):
    return eigh_grad(g[..., 0, :], g[..., 1:, :], ans[..., 0, :], ans[..., 1:, :], UPLO)


def eigh_packed_jvp(t, ans, a, UPLO="L"):
    dw, dv = eigh_tangent(t, ans[..., 0, :], ans[..., 1:, :], UPLO)
    return pack_rows(dw, dv)


EighResult = type(np.linalg.eigh(np.eye(1)))


def eigh_on_tensors(a, UPLO="L"):
    p = eigh_packed(a, UPLO)
    return EighResult(p[..., 0, :], p[..., 1:, :])


define(np.linalg.eigh, vjp=(eigh_vjp,), jvp=(eigh_jvp,))
define(eigh_packed, vjp=(eigh_packed_vjp,), jvp=(eigh_packed_jvp,))
COMPOSITES[np.linalg.eigh] = eigh_on_tensors


def eigvalsh_vjp(g, ans, a, UPLO="L"):
    return eigh_grad(g, 0, ans, np.linalg.eigh(a, UPLO)[1], UPLO)


def eigvalsh_jvp(t, ans, a, UPLO="L"):
    v = np.linalg.eigh(a, UPLO)[1]
    return np.sum(np.matmul(to_symmetric(t, UPLO), v) * v, axis=-2)


define(np.linalg.eigvalsh, vjp=(eigvalsh_vjp,), jvp=(eigvalsh_jvp,))


def check_symmetric(a, ans_w, what):
    """eig is differentiated for real symmetric matrices only (real eigenvalues, orthonormal vectors).
    numpy >= 2.5 returns them as complex arrays with zero imaginary parts."""
    x, w = value_of(a), value_of(ans_w)
    if np.iscomplexobj(x) or np.any(np.abs(np.imag(w)) > 0) or \
            not np.allclose(x, np.swapaxes(x, -1, -2), rtol=1e-10, atol=1e-12):
        raise NotImplementedError(
            f"{what}: only real symmetric matrices are differentiated (their eigenvalues are real and the "
            f"eigenvectors orthonormal); for those prefer np.linalg.eigh. The derivative of a general "
            f"(non-symmetric or complex) eigendecomposition is not supported.")


def real_for_real(grad, a):
    """The gradient of a real input: the real part where the outputs were complex (numpy >= 2.5's eig)."""
    return real_part(grad) if np.iscomplexobj(grad) and not np.iscomplexobj(a) else grad


def eig_vjp(g, ans, a):
    check_symmetric(a, ans[0], "np.linalg.eig")
    gw, gv = items_like(g, ans)
    return real_for_real(eig_grad(gw, gv, ans[0], ans[1]), a)


def eig_jvp(t, ans, a):
    check_symmetric(a, ans[0], "np.linalg.eig")
    return eig_tangent(t, ans[0], ans[1])


@primitive
def eig_packed(a):
    """``w, v = np.linalg.eig(a)`` as one array (row 0 is w)."""
    w, v = np.linalg.eig(a)
    return pack_rows(w, v)


def eig_packed_vjp(g, ans, a):
    check_symmetric(a, ans, "np.linalg.eig")
    return real_for_real(eig_grad(g[..., 0, :], g[..., 1:, :], ans[..., 0, :], ans[..., 1:, :]), a)


def eig_packed_jvp(t, ans, a):
    check_symmetric(a, ans, "np.linalg.eig")
    dw, dv = eig_tangent(t, ans[..., 0, :], ans[..., 1:, :])
    return pack_rows(dw, dv)


EigResult = type(np.linalg.eig(np.eye(1)))


def eig_on_tensors(a):
    p = eig_packed(a)
    return EigResult(p[..., 0, :], p[..., 1:, :])


def eigvals_vjp(g, ans, a):
    check_symmetric(a, ans, "np.linalg.eigvals")
    return real_for_real(eig_grad(g, 0, ans, np.linalg.eig(a)[1]), a)


def eigvals_jvp(t, ans, a):
    check_symmetric(a, ans, "np.linalg.eigvals")
    v = np.linalg.eig(a)[1]             # the values alone: no need for distinct eigenvalues
    return np.diagonal(np.matmul(np.matmul(np.linalg.inv(v), t), v), axis1=-2, axis2=-1)


define(np.linalg.eig, vjp=(eig_vjp,), jvp=(eig_jvp,))
define(eig_packed, vjp=(eig_packed_vjp,), jvp=(eig_packed_jvp,))
define(np.linalg.eigvals, vjp=(eigvals_vjp,), jvp=(eigvals_jvp,))
COMPOSITES[np.linalg.eig] = eig_on_tensors


# --- svd (full_matrices=False): A = U diag(s) Vh  (Townsend, "Differentiating the SVD", 2016) ------
# With V = Vh^T and F_ij = 1 / (s_j^2 - s_i^2):
#   dA-bar = U [(F o (U^T gU - gU^T U)) S + diag(gs) + S (F o (V^T gV - gV^T V))] V^T
#            + (I - U U^T) gU S^-1 V^T + U S^-1 gV^T (I - V V^T)

def svd_grad(gu, gs, gvh, u, s, vh):
    m, n, k = shape_of(u)[-2], shape_of(vh)[-1], shape_of(s)[-1]
    inner = as_diag(gs)
    vectors = any_nonzero(gu) or any_nonzero(gvh)
    if not vectors:
        return np.matmul(np.matmul(u, inner), vh)
    f = inverse_gaps(s * s, "np.linalg.svd", "singular values")
    srow, scol = np.expand_dims(s, -2), np.expand_dims(s, -1)
    ut_gu = np.matmul(T(u), gu)
    vt_gv = np.matmul(vh, T(gvh))
    inner = inner + f * (ut_gu - T(ut_gu)) * srow + scol * (f * (vt_gv - T(vt_gv)))
    out = np.matmul(np.matmul(u, inner), vh)
    if m > k:
        check_nonzero(s)
        out = out + np.matmul((gu - np.matmul(u, ut_gu)) / srow, vh)
    if n > k:
        check_nonzero(s)
        out = out + np.matmul(u, (gvh - np.matmul(T(vt_gv), vh)) / scol)
    return out


def svd_tangent(t, u, s, vh):
    """(du, ds, dvh) of ``u, s, vh = svd(a, full_matrices=False)`` along ``t``."""
    m, n, k = shape_of(u)[-2], shape_of(vh)[-1], shape_of(s)[-1]
    f = inverse_gaps(s * s, "np.linalg.svd", "singular values")
    srow, scol = np.expand_dims(s, -2), np.expand_dims(s, -1)
    dp = np.matmul(np.matmul(T(u), t), T(vh))
    du = np.matmul(u, f * (dp * srow + scol * T(dp)))
    dv = np.matmul(T(vh), f * (scol * dp + T(dp) * srow))
    if m > k:
        check_nonzero(s)
        du = du + (np.matmul(t, T(vh)) - np.matmul(u, dp)) / srow
    if n > k:
        check_nonzero(s)
        dv = dv + (np.matmul(T(t), u) - np.matmul(T(vh), T(dp))) / srow
    return du, np.diagonal(dp, axis1=-2, axis2=-1), T(dv)


def svdvals_tangent(t, u, vh):
    return np.sum(np.matmul(T(u), t) * vh, axis=-1)


def check_nonzero(s):
    if float(np.min(np.abs(value_of(s)))) <= 100 * np.finfo(value_of(s).dtype).eps * \
            max(float(np.max(np.abs(value_of(s)))), 1e-300):
        raise np.linalg.LinAlgError(
            "np.linalg.svd: the derivative of the singular vectors of a non-square matrix is undefined "
            "where a singular value is zero; differentiate only the singular values "
            "(np.linalg.svd(a, compute_uv=False)).")


def check_svd(a, full_matrices, hermitian, vectors):
    refuse_complex(a, "np.linalg.svd")
    if hermitian:
        raise NotImplementedError("np.linalg.svd(..., hermitian=True) is not differentiated; "
                                  "use hermitian=False (the default) or np.linalg.eigh")
    m, n = shape_of(a)[-2], shape_of(a)[-1]
    if full_matrices and m != n and vectors:
        raise NotImplementedError(
            f"np.linalg.svd of a {m}x{n} matrix with full_matrices=True (numpy's default): the extra "
            f"{'columns of u' if m > n else 'rows of vh'} are not unique, so they have no derivative; "
            f"pass full_matrices=False.")


def reduced(ans, k):
    """``(u, s, vh)`` cut to the ``k`` singular triplets (drops full_matrices' extra vectors)."""
    return ans[0][..., :k], ans[1], ans[2][..., :k, :]


def svd_vjp(g, ans, a, full_matrices=True, compute_uv=True, hermitian=False):
    if not compute_uv:
        check_svd(a, False, hermitian, False)
        u, _, vh = np.linalg.svd(a, full_matrices=False)
        return np.matmul(u * np.expand_dims(g, -2), vh)
    gu, gs, gvh = items_like(g, ans)
    k = shape_of(ans[1])[-1]
    check_svd(a, full_matrices, hermitian, any_nonzero(gu) or any_nonzero(gvh))
    u, s, vh = reduced(ans, k)
    return svd_grad(gu[..., :k], gs, gvh[..., :k, :], u, s, vh)


def svd_jvp(t, ans, a, full_matrices=True, compute_uv=True, hermitian=False):
    if not compute_uv:
        check_svd(a, False, hermitian, False)
        u, _, vh = np.linalg.svd(a, full_matrices=False)
        return svdvals_tangent(t, u, vh)
    check_svd(a, full_matrices, hermitian, True)
    return svd_tangent(t, *ans)


@primitive
def svd_packed(a):
    """``u, s, vh = np.linalg.svd(a, full_matrices=False)`` as one array: rows are u, s, vh^T."""
    u, s, vh = np.linalg.svd(a, full_matrices=False)
    return np.concatenate([u, np.expand_dims(s, -2), T(vh)], axis=-2)


def unpack_svd(p, m):
    return p[..., :m, :], p[..., m, :], T(p[..., m + 1:, :])


def svd_packed_vjp(g, ans, a):
    m = shape_of(a)[-2]
    gu, gs, gvh = unpack_svd(g, m)
    return svd_grad(gu, gs, gvh, *unpack_svd(ans, m))


def svd_packed_jvp(t, ans, a):
    du, ds, dvh = svd_tangent(t, *unpack_svd(ans, shape_of(a)[-2]))
    return np.concatenate([du, np.expand_dims(ds, -2), T(dvh)], axis=-2)


@primitive
def svd_values(a):
    """``np.linalg.svd(a, compute_uv=False)`` (the tape's op for singular values alone)."""
    return np.linalg.svd(a, compute_uv=False)


def svd_values_vjp(g, ans, a):
    return svd_vjp(g, ans, a, compute_uv=False)


def svd_values_jvp(t, ans, a):
    return svd_jvp(t, ans, a, compute_uv=False)


@primitive
def svd_full_vectors(a, which):
    """The full (m x m) u or (n x n) vh of a non-square matrix: values without a derivative."""
    return np.linalg.svd(a, full_matrices=True)[which]


def svd_full_vectors_vjp(g, ans, a, which):
    check_svd(a, True, False, True)


SVDResult = type(np.linalg.svd(np.eye(1)))


def svd_on_tensors(a, full_matrices=True, compute_uv=True, hermitian=False):
    check_svd(a, False, hermitian, False)
    if not compute_uv:
        return svd_values(a)
    m, n = shape_of(a)[-2], shape_of(a)[-1]
    if full_matrices and m != n:
        return SVDResult(svd_full_vectors(a, 0), svd_values(a), svd_full_vectors(a, 2))
    return SVDResult(*unpack_svd(svd_packed(a), m))


define(np.linalg.svd, vjp=(svd_vjp,), jvp=(svd_jvp,))
define(svd_packed, vjp=(svd_packed_vjp,), jvp=(svd_packed_jvp,))
define(svd_values, vjp=(svd_values_vjp,), jvp=(svd_values_jvp,))
define(svd_full_vectors, vjp=(svd_full_vectors_vjp, None), jvp=(svd_full_vectors_vjp, None))
COMPOSITES[np.linalg.svd] = svd_on_tensors


# --- qr (reduced, m >= n): A = Q R -----------------------------------------------------------------
# VJP (Seeger et al. / TensorFlow): M = R gR^T - gQ^T Q,  gA = (gQ + Q copyltu(M)) R^-T.
# JVP: C = Q^T dA R^-1, Omega = the antisymmetric part of C below the diagonal, dR = (C - Omega) R,
#      dQ = dA R^-1 - Q (C - Omega).

def check_qr(a, mode):
    refuse_complex(a, "np.linalg.qr")
    m, n = shape_of(a)[-2], shape_of(a)[-1]
    if mode == "raw" or (mode == "complete" and m != n) or m < n:
        raise NotImplementedError(
            f"np.linalg.qr(mode={mode!r}) of a {m}x{n} matrix is not differentiated: only the reduced "
            f"(and 'r') factorisation of a square or tall matrix (m >= n) is; for a wide matrix "
            f"factor its transpose, and use mode='reduced' rather than 'complete' or 'raw'.")


def qr_grad(gq, gr, q, r):
    mm = np.matmul(r, T(gr)) - np.matmul(T(gq), q)
    b = gq + np.matmul(q, copyltu(mm))
    return T(np.linalg.solve(r, T(b)))


def qr_tangent(t, q, r):
    x = T(np.linalg.solve(T(r), T(t)))           # t R^-1
    c = np.matmul(T(q), x)
    _, strict = triangle_masks(shape_of(c)[-1], "L", dtype_of(c))
    upper = c - (c * strict - T(c * strict))
    return x - np.matmul(q, upper), np.matmul(upper, r)


def qr_vjp(g, ans, a, mode="reduced"):
    check_qr(a, mode)
    if mode == "r":
        q = np.linalg.qr(a)[0]
        return qr_grad(np.zeros_like(q), g, q, ans)
    gq, gr = items_like(g, ans)
    return qr_grad(gq, gr, ans[0], ans[1])


def qr_jvp(t, ans, a, mode="reduced"):
    check_qr(a, mode)
    if mode == "r":
        return qr_tangent(t, np.linalg.qr(a)[0], ans)[1]
    return qr_tangent(t, ans[0], ans[1])


@primitive
def qr_packed(a):
    """``q, r = np.linalg.qr(a)`` (m >= n) as one array: rows are q, then r^T."""
    q, r = np.linalg.qr(a)
    return np.concatenate([q, T(r)], axis=-2)


def qr_packed_vjp(g, ans, a):
    check_qr(a, "reduced")
    m = shape_of(a)[-2]
    return qr_grad(g[..., :m, :], T(g[..., m:, :]), ans[..., :m, :], T(ans[..., m:, :]))


def qr_packed_jvp(t, ans, a):
    check_qr(a, "reduced")
    m = shape_of(a)[-2]
    dq, dr = qr_tangent(t, ans[..., :m, :], T(ans[..., m:, :]))
    return np.concatenate([dq, T(dr)], axis=-2)


QRResult = type(np.linalg.qr(np.eye(1)))


def qr_on_tensors(a, mode="reduced"):
    m, n = shape_of(a)[-2], shape_of(a)[-1]
    if m < n or mode not in ("reduced", "r", "complete") or (mode == "complete" and m != n):
        check_qr(a, mode)                 # a refusal now rather than a constant result
    p = qr_packed(a)
    r = T(p[..., m:, :])
    return r if mode == "r" else QRResult(p[..., :m, :], r)


define(np.linalg.qr, vjp=(qr_vjp,), jvp=(qr_jvp,))
define(qr_packed, vjp=(qr_packed_vjp,), jvp=(qr_packed_jvp,))
COMPOSITES[np.linalg.qr] = qr_on_tensors


# --- norm: every ord numpy accepts, for vectors (one axis) and matrices (two axes) ------------------
# The gradient of the 2-norm at the zero vector is NaN (0/0), as in TensorFlow.  Where a max / min
# is tied (ord=inf, matrix ord=1, ...) the gradient is split evenly among the tied entries.

def norm_axes(x, ord, axis):
    nd = len(shape_of(x))
    if axis is None:
        if ord is None:
            return tuple(range(nd))
        return tuple(range(nd)) if nd in (1, 2) else None
    if isinstance(axis, (tuple, list)):
        return tuple(a % nd for a in axis)
    return (axis % nd,)


def keep_reduced(v, x, axes, keepdims):
    """``v`` (shaped like the norm) reshaped with ones at ``axes`` so it broadcasts against x."""
    if keepdims:
        return v
    s = shape_of(x)
    return np.reshape(v, tuple(1 if i in axes else d for i, d in enumerate(s)))


def tie_share(values, best, axis):
    """1/count where ``values`` equal their reduced ``best`` along ``axis`` (split ties evenly), else 0."""
    ties = np.where(values == best, np.ones_like(values), np.zeros_like(values))
    return ties / np.sum(ties, axis=axis, keepdims=True)


def norm_grad(g, ans, x, ord=None, axis=None, keepdims=False):
    """d norm(x) / d x weighted by ``g`` (shaped like the norm)."""
    refuse_complex(x, "np.linalg.norm")
    axes = norm_axes(x, ord, axis)
    gk = keep_reduced(g, x, axes, keepdims)
    nk = keep_reduced(ans, x, axes, keepdims)
    if ord is None or ord == "fro" or (ord == 2 and len(axes) == 1):
        return gk * x / nk
    if len(axes) == 1:
        return vector_norm_grad(gk, nk, x, ord, axes)
    row, col = axes
    if ord in (1, -1, np.inf, -np.inf):
        summed, other = (row, col) if ord in (1, -1) else (col, row)
        sums = np.sum(np.abs(x), axis=summed, keepdims=True)
        return gk * np.sign(x) * tie_share(sums, nk, other)
    # nuclear (the sum of singular values), 2 (the largest), -2 (the smallest)
    moved = np.moveaxis(x, (row, col), (-2, -1))
    u, s, vh = np.linalg.svd(moved, full_matrices=False)
    if ord == "nuc":
        d = np.matmul(u, vh)
    else:
        i = 0 if ord == 2 else -1
        d = np.expand_dims(u[..., :, i], -1) * np.expand_dims(vh[..., i, :], -2)
    return gk * np.moveaxis(d, (-2, -1), (row, col))


def vector_norm_grad(gk, nk, x, ord, axes):
    """The p-norm over ``axes`` (one or several; ``gk``, ``nk`` broadcast against x)."""
    if ord == 2:
        return gk * x / nk
    if ord == np.inf or ord == -np.inf:
        return gk * np.sign(x) * tie_share(np.abs(x), nk, tuple(axes))
    if ord == 0:
        return np.zeros_like(x)
    if ord == 1:
        return gk * np.sign(x)
    return gk * np.sign(x) * np.abs(x) ** (ord - 1) / nk ** (ord - 1)


def norm_vjp(g, ans, x, ord=None, axis=None, keepdims=False):
    return norm_grad(g, ans, x, ord, axis, keepdims)


def norm_jvp(t, ans, x, ord=None, axis=None, keepdims=False):
    d = norm_grad(np.ones_like(ans), ans, x, ord, axis, keepdims)
    return np.sum(d * t, axis=norm_axes(x, ord, axis), keepdims=keepdims)


define(np.linalg.norm, vjp=(norm_vjp,), jvp=(norm_jvp,))


# --- matrix_power: d(A^n) = sum_k A^k dA A^(n-1-k);  A^-n = (A^-1)^n --------------------------------

def powers(a, n):
    """[I, A, A^2, ..., A^(n-1)] (n >= 1)."""
    out = [np.zeros_like(a) + eye_like(shape_of(a)[-1], a)]
    for _ in range(n - 1):
        out.append(np.matmul(out[-1], a))
    return out


def positive_power_grad(g, a, n):
    p = powers(a, n)
    total = 0
    for k in range(n):
        total = total + np.matmul(np.matmul(T(p[k]), g), T(p[n - 1 - k]))
    return total


def positive_power_tangent(t, a, n):
    p = powers(a, n)
    total = 0
    for k in range(n):
        total = total + np.matmul(np.matmul(p[k], t), p[n - 1 - k])
    return total


def matrix_power_vjp(g, ans, a, n):
    if n == 0:
        return np.zeros_like(a)
    if n > 0:
        return positive_power_grad(g, a, n)
    b = np.linalg.inv(a)
    return inv_vjp(positive_power_grad(g, b, -n), b, a)


def matrix_power_jvp(t, ans, a, n):
    if n == 0:
        return np.zeros_like(ans)
    if n > 0:
        return positive_power_tangent(t, a, n)
    b = np.linalg.inv(a)
    return positive_power_tangent(inv_jvp(t, b, a), b, -n)


define(np.linalg.matrix_power, vjp=(matrix_power_vjp, None), jvp=(matrix_power_jvp, None))


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



# --- numpy 2's array-API names in np.linalg ----------------------------------------------------------

def svdvals_vjp(g, ans, x):
    return svd_vjp(g, ans, x, compute_uv=False)


def svdvals_jvp(t, ans, x):
    return svd_jvp(t, ans, x, compute_uv=False)


def matrix_norm_vjp(g, ans, x, keepdims=False, ord="fro"):
    return norm_grad(g, ans, x, ord, (-2, -1), keepdims)


def matrix_norm_jvp(t, ans, x, keepdims=False, ord="fro"):
    return norm_jvp(t, ans, x, ord, (-2, -1), keepdims)


def vector_axes(x, axis):
    """The axes ``np.linalg.vector_norm`` reduces (all of them for ``axis=None``)."""
    return norm_axes(x, None, axis)


def vector_norm_vjp(g, ans, x, axis=None, keepdims=False, ord=2):
    refuse_complex(x, "np.linalg.vector_norm")
    axes = vector_axes(x, axis)
    return vector_norm_grad(keep_reduced(g, x, axes, keepdims), keep_reduced(ans, x, axes, keepdims), x, ord, axes)


def vector_norm_jvp(t, ans, x, axis=None, keepdims=False, ord=2):
    d = vector_norm_vjp(np.ones_like(ans), ans, x, axis, keepdims, ord)
    return np.sum(d * t, axis=vector_axes(x, axis), keepdims=keepdims)


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


def matrix_transpose_jvp(t, ans, x):
    return np.linalg.matrix_transpose(t)


define(np.linalg.svdvals, vjp=(svdvals_vjp,), jvp=(svdvals_jvp,))
define(np.linalg.matrix_norm, vjp=(matrix_norm_vjp,), jvp=(matrix_norm_jvp,))
define(np.linalg.vector_norm, vjp=(vector_norm_vjp,), jvp=(vector_norm_jvp,))
define(np.linalg.vecdot, vjp=(vecdot_vjp_x1, vecdot_vjp_x2), jvp=(vecdot_jvp_x1, vecdot_jvp_x2))
define(np.linalg.trace, vjp=(linalg_trace_vjp,), jvp=(linalg_trace_jvp,))
define(np.linalg.diagonal, vjp=(linalg_diagonal_vjp,), jvp=(linalg_diagonal_jvp,))
define(np.linalg.cross, vjp=(cross_vjp_x1, cross_vjp_x2), jvp=(cross_jvp_x1, cross_jvp_x2))
define(np.linalg.matrix_transpose, vjp=(matrix_transpose_vjp,), jvp=(matrix_transpose_jvp,))
# np.linalg.matmul and np.linalg.outer compute what np.matmul and np.outer do (on 1-d operands for
# outer): the same rules
define(np.linalg.matmul, vjp=lookup(np.matmul).vjps, jvp=lookup(np.matmul).jvps)
define(np.linalg.outer, vjp=lookup(np.outer).vjps, jvp=lookup(np.outer).jvps)
