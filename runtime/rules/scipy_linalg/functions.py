"""Rules for matrix functions: ``expm``, ``logm``, ``sqrtm``, and ``solve_sylvester``.

A primary matrix function f has a Frechet derivative L_f(A, E) (the JVP along E), and since
f(A^T) = f(A)^T its transpose is L_f(A^T, .): the VJP is L_f(A^T, g).  For expm and logm it is
read off f of a block-triangular matrix, f([[A, E], [0, A]]) = [[f(A), L_f(A, E)], [0, f(A)]],
so the rules are f itself (recorded again on tensors: every order).  sqrtm's is a Sylvester
equation, X dX + dX X = dA with X = sqrtm(A), solved by ``solve_sylvester`` (whose rules follow
from A X + X B = Q: dX solves A dX + dX B = dQ - dA X - X dB).
"""

import warnings

import numpy as np
import scipy.linalg as _sl

from ..linalg.eigen import real_for_real
from ..linalg.matrix import T
from ..registry import define, primitive
from ..support import shape_of


@primitive
def expm(A):
    return _sl.expm(A)


@primitive
def logm(A, disp=True):
    """``scipy.linalg.logm`` (``disp`` as scipy takes it, until scipy 1.18 dropped it)."""
    return _sl.logm(A) if disp is True else _sl.logm(A, disp=disp)


@primitive
def sqrtm(A, disp=True, blocksize=64):
    """``scipy.linalg.sqrtm`` (``disp`` and ``blocksize`` until scipy 1.18 dropped them)."""
    return _sl.sqrtm(A) if disp is True and blocksize == 64 else _sl.sqrtm(A, disp=disp, blocksize=blocksize)


@primitive
def solve_sylvester(a, b, q):
    return _sl.solve_sylvester(a, b, q)


def frechet(f, a, e):
    """L_f(a, e): the top-right block of f([[a, e], [0, a]])."""
    n = shape_of(a)[-1]
    top = np.concatenate([a, e], axis=-1)
    bottom = np.concatenate([np.zeros_like(e), a], axis=-1)
    return f(np.concatenate([top, bottom], axis=-2))[..., :n, n:]


def one_result(disp, what):
    if disp is False:
        raise ValueError(f"{what}(disp=False) also returns an error estimate and is not differentiated; "
                         f"drop disp (scipy warns when the result is inaccurate)")


def expm_vjp(g, ans, A):
    return real_for_real(frechet(expm, T(A), g), A)


def expm_jvp(t, ans, A):
    return frechet(expm, A, t)


define((_sl.expm, expm), vjp=(expm_vjp,), jvp=(expm_jvp,))


@primitive
def block_logm(A):
    """logm of the rules' block matrices, without scipy's accuracy warning (its estimate for them
    is looser than for A; the user's own logm(A) still warns)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return _sl.logm(A)


def logm_vjp(g, ans, A, disp=True):
    one_result(disp, "scipy.linalg.logm")
    return real_for_real(frechet(block_logm, T(A), g), A)


def logm_jvp(t, ans, A, disp=True):
    one_result(disp, "scipy.linalg.logm")
    return frechet(block_logm, A, t)


define((_sl.logm, logm), vjp=(logm_vjp,), jvp=(logm_jvp,))
define(block_logm, vjp=(logm_vjp,), jvp=(logm_jvp,))


def sqrtm_vjp(g, ans, A, disp=True, blocksize=64):
    one_result(disp, "scipy.linalg.sqrtm")
    return real_for_real(solve_sylvester(T(ans), T(ans), g), A)


def sqrtm_jvp(t, ans, A, disp=True, blocksize=64):
    one_result(disp, "scipy.linalg.sqrtm")
    return solve_sylvester(ans, ans, t)


define((_sl.sqrtm, sqrtm), vjp=(sqrtm_vjp,), jvp=(sqrtm_jvp,))


# A X + X B = Q:  Q-bar = solve_sylvester(A^T, B^T, g),  A-bar = -Q-bar X^T,  B-bar = -X^T Q-bar

def sylvester_cotangent(g, a, b):
    return solve_sylvester(T(a), T(b), g)


def solve_sylvester_vjp_a(g, ans, a, b, q):
    return real_for_real(-np.matmul(sylvester_cotangent(g, a, b), T(ans)), a)


def solve_sylvester_vjp_b(g, ans, a, b, q):
    return real_for_real(-np.matmul(T(ans), sylvester_cotangent(g, a, b)), b)


def solve_sylvester_vjp_q(g, ans, a, b, q):
    return real_for_real(sylvester_cotangent(g, a, b), q)


def solve_sylvester_jvp_a(t, ans, a, b, q):
    return solve_sylvester(a, b, -np.matmul(t, ans))


def solve_sylvester_jvp_b(t, ans, a, b, q):
    return solve_sylvester(a, b, -np.matmul(ans, t))


def solve_sylvester_jvp_q(t, ans, a, b, q):
    return solve_sylvester(a, b, t)


define((_sl.solve_sylvester, solve_sylvester),
       vjp=(solve_sylvester_vjp_a, solve_sylvester_vjp_b, solve_sylvester_vjp_q),
       jvp=(solve_sylvester_jvp_a, solve_sylvester_jvp_b, solve_sylvester_jvp_q))
