"""Rules for scipy.linalg's inverses and solves: ``inv``, ``det``, ``solve`` (every ``assume_a``),
``solve_triangular`` (``trans``, ``lower``, ``unit_diagonal``).  ``inv``, ``det`` and ``solve`` are
numpy's math on the matrix the solver reads, so their rules are numpy's (linalg/inverses.py)
applied through ``read``; ``solve_triangular``'s reuse the triangular solve itself."""

import numpy as np
import scipy.linalg as _sl

from ..linalg import inverses
from ..linalg.eigen import real_for_real
from ..linalg.matrix import T
from ..registry import define, primitive
from ..support import dtype_of, shape_of
from .structure import columns, kept, kind_of, like, read, read_adjoint
from ..linalg.matrix import triangle_masks


# --- the primitives the tape records (runtime.scipy.linalg exports them) ---------------------------

@primitive
def inv(a, overwrite_a=False, check_finite=True, **kwargs):
    """``scipy.linalg.inv`` (``assume_a=``, ``lower=`` from scipy 1.17)."""
    return _sl.inv(a, check_finite=check_finite, **kwargs)


@primitive
def det(a, overwrite_a=False, check_finite=True):
    return _sl.det(a, check_finite=check_finite)


@primitive
def solve(a, b, lower=False, overwrite_a=False, overwrite_b=False, check_finite=True, assume_a=None,
          transposed=False):
    return _sl.solve(a, b, lower=lower, check_finite=check_finite, assume_a=assume_a, transposed=transposed)


@primitive
def solve_triangular(a, b, trans=0, lower=False, unit_diagonal=False, overwrite_b=False, check_finite=True):
    return _sl.solve_triangular(a, b, trans=trans, lower=lower, unit_diagonal=unit_diagonal,
                                check_finite=check_finite)


# --- inv, det: numpy's rules ------------------------------------------------------------------------

def inverted_kind(assume_a, overwrite_a):
    kept("scipy.linalg.inv", overwrite_a=overwrite_a)
    if assume_a == "diagonal":
        raise ValueError("scipy.linalg.inv(assume_a='diagonal') is not differentiated (scipy's result also "
                         "depends on the entries off the diagonal); for a diagonal matrix differentiate "
                         "np.diag(1 / np.diagonal(a)) instead")
    return kind_of(assume_a, "scipy.linalg.inv")


def inv_vjp(g, ans, a, overwrite_a=False, check_finite=True, assume_a=None, lower=False):
    kind = inverted_kind(assume_a, overwrite_a)
    return read_adjoint(inverses.inv_vjp(g, ans, a), kind, lower)


def inv_jvp(t, ans, a, overwrite_a=False, check_finite=True, assume_a=None, lower=False):
    kind = inverted_kind(assume_a, overwrite_a)
    return inverses.inv_jvp(read(t, kind, lower), ans, a)


define((_sl.inv, inv), vjp=(inv_vjp,), jvp=(inv_jvp,))


def det_vjp(g, ans, a, overwrite_a=False, check_finite=True):
    kept("scipy.linalg.det", overwrite_a=overwrite_a)
    return inverses.det_vjp(g, ans, a)


def det_jvp(t, ans, a, overwrite_a=False, check_finite=True):
    kept("scipy.linalg.det", overwrite_a=overwrite_a)
    return inverses.det_jvp(t, ans, a)


define((_sl.det, det), vjp=(det_vjp,), jvp=(det_jvp,))


# --- solve: numpy's solve of the matrix read (transposed: of its transpose) ---------------------------

def solved(a, lower, assume_a, transposed, overwrite_a=False, overwrite_b=False):
    """(kind, the matrix solved with) for ``scipy.linalg.solve(a, ...)``."""
    kept("scipy.linalg.solve", overwrite_a=overwrite_a, overwrite_b=overwrite_b)
    kind = kind_of(assume_a, "scipy.linalg.solve")
    m = read(a, kind, lower)
    return kind, (T(m) if transposed else m)


def solve_vjp_a(g, ans, a, b, lower=False, overwrite_a=False, overwrite_b=False, check_finite=True,
                assume_a=None, transposed=False):
    kind, m = solved(a, lower, assume_a, transposed, overwrite_a, overwrite_b)
    gm = inverses.solve_vjp_a(g, ans, m, b)
    return read_adjoint(T(gm) if transposed else gm, kind, lower)


def solve_vjp_b(g, ans, a, b, lower=False, overwrite_a=False, overwrite_b=False, check_finite=True,
                assume_a=None, transposed=False):
    kind, m = solved(a, lower, assume_a, transposed, overwrite_a, overwrite_b)
    return inverses.solve_vjp_b(g, ans, m, b)


def solve_jvp_a(t, ans, a, b, lower=False, overwrite_a=False, overwrite_b=False, check_finite=True,
                assume_a=None, transposed=False):
    kind, m = solved(a, lower, assume_a, transposed, overwrite_a, overwrite_b)
    tm = read(t, kind, lower)
    return inverses.solve_jvp_a(T(tm) if transposed else tm, ans, m, b)


def solve_jvp_b(t, ans, a, b, lower=False, overwrite_a=False, overwrite_b=False, check_finite=True,
                assume_a=None, transposed=False):
    kind, m = solved(a, lower, assume_a, transposed, overwrite_a, overwrite_b)
    return inverses.solve_jvp_b(t, ans, m, b)


define((_sl.solve, solve), vjp=(solve_vjp_a, solve_vjp_b), jvp=(solve_jvp_a, solve_jvp_b))


# --- solve_triangular: x = op(M)^-1 b, M the triangle of a (unit diagonal: its strict triangle + I) ------
# op N: b-bar = M^-T g, M-bar = -b-bar x^T;  op T: b-bar = M^-1 g, M-bar = -x b-bar^T;
# op C (complex): conj(M)^-T b, so b-bar = conj(M)^-1 g and M-bar = conj(-x b-bar^T).

def op_of(trans, a):
    """'N', 'T' or 'C' ('C' of a real matrix is 'T')."""
    op = {0: "N", 1: "T", 2: "C", "N": "N", "T": "T", "C": "C", "n": "N", "t": "T", "c": "C"}.get(trans)
    if op is None:
        raise ValueError(f"scipy.linalg.solve_triangular: trans={trans!r} is not 0, 1, 2, 'N', 'T' or 'C'")
    return "T" if op == "C" and not np.iscomplexobj(a) else op


def triangle_read(n, lower, unit_diagonal, dtype):
    """The entries of ``a`` a triangular solve reads (a constant mask)."""
    full, strict = triangle_masks(n, "L" if lower else "U", dtype)
    return strict if unit_diagonal else full


def triangular_cotangent_b(g, a, op, lower, unit_diagonal):
    if op == "C":
        return np.conj(solve_triangular(a, np.conj(g), 0, lower, unit_diagonal))
    return solve_triangular(a, g, "T" if op == "N" else "N", lower, unit_diagonal)


def solve_triangular_vjp_a(g, ans, a, b, trans=0, lower=False, unit_diagonal=False, overwrite_b=False,
                           check_finite=True):
    kept("scipy.linalg.solve_triangular", overwrite_b=overwrite_b)
    op = op_of(trans, a)
    gb = columns(triangular_cotangent_b(g, a, op, lower, unit_diagonal), a)
    x = columns(ans, a)
    gm = -np.matmul(gb, T(x)) if op == "N" else -np.matmul(x, T(gb))
    if op == "C":
        gm = np.conj(gm)
    return real_for_real(gm * triangle_read(shape_of(a)[-1], lower, unit_diagonal, dtype_of(gm)), a)


def solve_triangular_vjp_b(g, ans, a, b, trans=0, lower=False, unit_diagonal=False, overwrite_b=False,
                           check_finite=True):
    kept("scipy.linalg.solve_triangular", overwrite_b=overwrite_b)
    return real_for_real(triangular_cotangent_b(g, a, op_of(trans, a), lower, unit_diagonal), b)


def solve_triangular_jvp_a(t, ans, a, b, trans=0, lower=False, unit_diagonal=False, overwrite_b=False,
                           check_finite=True):
    kept("scipy.linalg.solve_triangular", overwrite_b=overwrite_b)
    op = op_of(trans, a)
    dm = t * triangle_read(shape_of(a)[-1], lower, unit_diagonal, dtype_of(t))
    if op != "N":
        dm = np.conj(T(dm)) if op == "C" else T(dm)
    dx = -solve_triangular(a, np.matmul(dm, columns(ans, a)), trans, lower, unit_diagonal)
    return like(dx, ans)


def solve_triangular_jvp_b(t, ans, a, b, trans=0, lower=False, unit_diagonal=False, overwrite_b=False,
                           check_finite=True):
    kept("scipy.linalg.solve_triangular", overwrite_b=overwrite_b)
    return solve_triangular(a, t, trans, lower, unit_diagonal)


define((_sl.solve_triangular, solve_triangular), vjp=(solve_triangular_vjp_a, solve_triangular_vjp_b),
       jvp=(solve_triangular_jvp_a, solve_triangular_jvp_b))
