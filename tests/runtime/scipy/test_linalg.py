"""scipy.linalg in both halves: programs written with scipy.linalg, differentiated by the transpiler
(reverse, forward, Hessian-vector products) and on the tape through runtime.scipy.linalg, against
central finite differences of the same programs run by scipy itself."""

import types

import numpy as np
import pytest

pytest.importorskip("scipy")

import scipy.linalg as sl  # noqa: E402

import runtime as tf  # noqa: E402
from runtime import scipy as sp  # noqa: E402
from tests.fd import assert_close, numeric_grad, numeric_jvp  # noqa: E402

RNG = np.random.default_rng(11)
_A = RNG.standard_normal((3, 3))
P = _A @ _A.T + 3 * np.eye(3)          # symmetric positive definite
B = RNG.standard_normal(3)


def triangular(p):
    x = sl.solve_triangular(p, B, lower=True, trans=1)
    return np.sum(x * x) + np.sum(sl.solve_triangular(p, B, unit_diagonal=True) ** 2)


def cholesky_solve(p):
    c, low = sl.cho_factor(p, lower=True)
    y = sl.cho_solve((c, low), B)
    return np.sum(y * y) + np.sum(sl.cholesky(p)[0, 1:] ** 2)


def lu_solve(p):
    lu, piv = sl.lu_factor(p)
    return np.sum(sl.lu_solve((lu, piv), B) ** 2) + np.sum(sl.lu_solve((lu, piv), B, trans=1))


def spectral(p):
    w, v = sl.eigh(p)
    u, s, vh = sl.svd(p)
    return np.sum(w * w) + np.sum(v[:, 0] ** 2 * B) + np.sum(s ** 2) + np.sum(u[:, 1] * B) ** 2


def inverses(p):
    return sl.det(p) + np.sum(sl.inv(p) ** 2) + np.sum(sl.solve(p, B, assume_a="pos") ** 2) \
        + np.sum(sl.solve(p, B, assume_a="sym", lower=True))


def matrix_functions(p):
    return np.sum(sl.expm(p / 10) ** 2) + np.sum(sl.sqrtm(p) ** 2) + np.sum(sl.logm(p) ** 2) \
        + np.sum(sl.solve_sylvester(p, p.T, p) ** 2)


def structured(p):
    ab = p[:2] + np.array([[0.0, 0.0, 0.0], [3.0, 3.0, 3.0]])     # (l, u) = (0, 1): the diagonal is row 1
    return np.sum(sl.solve_banded((0, 1), ab, B) ** 2) + np.sum(sl.block_diag(p, B, 2.0 * p) ** 3)


PROGRAMS = [triangular, cholesky_solve, lu_solve, spectral, inverses, matrix_functions, structured]


def on_tensors(program):
    """The same program with ``sl`` read as runtime.scipy.linalg (what a tape program imports)."""
    return types.FunctionType(program.__code__, {**program.__globals__, "sl": sp.linalg}, program.__name__)


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.__name__ for p in PROGRAMS])
def test_transpiler_reverse_forward_and_second_order(program):
    from transpiler import grad, hvp, jvp
    f = ref = program
    assert_close(grad(f)(P), numeric_grad(ref, P), rtol=1e-5, atol=1e-6, what=f"{program.__name__} grad")
    t = RNG.standard_normal(P.shape)
    assert_close(jvp(f, (P,), (t,))[1], numeric_jvp(ref, [P], [t]), rtol=1e-5, atol=1e-6,
                 what=f"{program.__name__} jvp")
    v = RNG.standard_normal(P.shape)
    want = (numeric_grad(ref, P + 1e-4 * v, 1e-5) - numeric_grad(ref, P - 1e-4 * v, 1e-5)) / 2e-4
    assert_close(hvp(f, P, v), want, rtol=1e-4, atol=1e-4 * max(1.0, np.max(np.abs(want))),
                 what=f"{program.__name__} hvp")


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.__name__ for p in PROGRAMS])
def test_tape_first_and_second_order(program):
    x = tf.constant(P)
    v = RNG.standard_normal(P.shape)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = on_tensors(program)(x)
        g = inner.gradient(y, x)
        gv = tf.reduce_sum(g * v)
    h = outer.gradient(gv, x)
    ref = program
    assert_close(g.numpy(), numeric_grad(ref, P), what=f"{program.__name__} tape gradient")
    want = (numeric_grad(ref, P + 1e-4 * v, 1e-5) - numeric_grad(ref, P - 1e-4 * v, 1e-5)) / 2e-4
    assert_close(h.numpy(), want, rtol=1e-4, atol=1e-4 * max(1.0, np.max(np.abs(want))),
                 what=f"{program.__name__} tape second order")


def test_tape_forward_mode():
    x = tf.constant(P)
    t = RNG.standard_normal(P.shape)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(t)) as acc:
        y = sum(on_tensors(f)(x) for f in (inverses, cholesky_solve, matrix_functions))
    want = numeric_jvp(lambda p: inverses(p) + cholesky_solve(p) + matrix_functions(p), [P], [t])
    assert_close(acc.jvp(y).numpy(), want, what="ForwardAccumulator")


def test_the_namespace_gives_scipys_values_and_names():
    x = tf.constant(P)
    for name in ("inv", "det", "expm", "sqrtm", "logm", "cholesky"):
        np.testing.assert_allclose(getattr(sp.linalg, name)(x).numpy(), getattr(sl, name)(P), rtol=1e-12)
    for name in ("cho_factor", "lu_factor", "eigh", "svd"):
        got, want = getattr(sp.linalg, name)(x), getattr(sl, name)(P)
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            np.testing.assert_allclose(np.asarray(getattr(g, "numpy", lambda: g)()), w, rtol=1e-12, atol=1e-14)
    assert sp.linalg.norm is sl.norm                    # no rule here: scipy's own function
    assert sp.linalg.hadamard is sl.hadamard


def test_a_tensor_reaching_scipy_linalg_names_the_mirror():
    x = tf.constant(P)
    with tf.GradientTape() as tape:
        tape.watch(x)
        with pytest.raises(TypeError, match="runtime.scipy.linalg.expm"):
            sl.expm(x)
