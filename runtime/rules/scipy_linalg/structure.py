"""What scipy.linalg's solvers read of a matrix, and what its rules share.

``assume_a=`` (solve, inv) says which entries a solver reads: a symmetric or Hermitian solver
reads one triangle (``lower=``), a diagonal or tridiagonal one its bands, a triangular one its
triangle.  ``read(a, kind, lower)`` is the matrix the solver actually uses, and
``read_adjoint(m, kind, lower)`` its transpose (the gradient lands only where the solver
reads): both are linear, so a rule written for a general matrix serves every ``assume_a``.
"""

import functools

import numpy as np

from ..linalg.matrix import T, from_triangle, to_symmetric, triangle_masks
from ..registry import _DISPATCH, TENSOR_TYPES, primitive
from ..support import dtype_of, shape_of

KINDS = {None: "general", "gen": "general", "general": "general", "banded": "general",
         "sym": "symmetric", "symmetric": "symmetric",
         "her": "hermitian", "hermitian": "hermitian", "pos": "hermitian", "positive definite": "hermitian",
         "diagonal": "diagonal", "tridiagonal": "tridiagonal",
         "upper triangular": "upper", "lower triangular": "lower"}
"""scipy's ``assume_a`` -> the entries read.  'banded' finds the band from the values, so every
entry counts; 'pos' reads a Hermitian triangle (a symmetric one for real matrices)."""


def kind_of(assume_a, what):
    try:
        return KINDS[assume_a]
    except (KeyError, TypeError):
        raise ValueError(f"{what}(assume_a={assume_a!r}) is not differentiated; the assume_a values "
                         f"with a derivative are {sorted(k for k in KINDS if k)}") from None


def kept(what, **flags):
    """Refuse ``overwrite_*=True``: scipy may then destroy an input that the derivative reads."""
    for name, value in flags.items():
        if value:
            raise ValueError(f"{what}({name}=True) may overwrite the input its derivative reads; drop "
                             f"{name} (its default is False) where the result is differentiated")


def band_mask(n, below, above, dtype):
    """Ones on the diagonals from ``below`` under to ``above`` over the main one (a constant)."""
    i = np.arange(n)
    d = i[None, :] - i[:, None]
    return ((d >= -below) & (d <= above)).astype(dtype)


def mask_of(kind, n, dtype):
    if kind == "diagonal":
        return np.eye(n, dtype=dtype)
    if kind == "tridiagonal":
        return band_mask(n, 1, 1, dtype)
    return triangle_masks(n, "U" if kind == "upper" else "L", dtype)[0]


def read(a, kind, lower):
    """The matrix a solver of this ``kind`` uses when given ``a``."""
    if kind == "general":
        return a
    uplo = "L" if lower else "U"
    if kind == "symmetric":       # complex symmetric, not Hermitian: no conjugate
        full, strict = triangle_masks(shape_of(a)[-1], uplo, dtype_of(a))
        return a * full + T(a * strict)
    if kind == "hermitian":       # (the diagonal's imaginary part is not read)
        return to_symmetric(a, uplo)
    return a * mask_of(kind, shape_of(a)[-1], dtype_of(a))


def read_adjoint(m, kind, lower):
    """The transpose of ``read``: the gradient w.r.t. ``a`` from the gradient ``m`` w.r.t. the
    matrix used (under the rules' convention the transpose of conj is conj, of real real)."""
    if kind == "general":
        return m
    uplo = "L" if lower else "U"
    if kind == "symmetric":
        full, strict = triangle_masks(shape_of(m)[-1], uplo, dtype_of(m))
        return m * full + T(m) * strict
    if kind == "hermitian":
        return from_triangle(m, uplo)
    return m * mask_of(kind, shape_of(m)[-1], dtype_of(m))


def columns(x, a):
    """``x`` as a matrix of columns: a vector right-hand side (one axis fewer than ``a``) gets one."""
    return np.expand_dims(x, -1) if np.ndim(x) == np.ndim(a) - 1 else x


def like(x, ans):
    """A result computed as columns, back in the shape of ``ans``."""
    return np.reshape(x, shape_of(ans))


def holds_tensor(x):
    return type(x) in TENSOR_TYPES or type(x) in (tuple, list) and any(holds_tensor(v) for v in x)


def nested_primitive(raw):
    """``primitive`` for functions that take tensors inside a tuple argument (cho_solve's
    ``(c, lower)``, odeint's ``args``): a tensor anywhere among the arguments records the call."""
    plain = primitive(raw)

    @functools.wraps(raw)
    def wrapper(*args, **kwargs):
        if any(holds_tensor(a) for a in args):
            return _DISPATCH[0](wrapper, args, kwargs)
        return raw(*args, **kwargs)

    wrapper.raw = plain.raw
    return wrapper
