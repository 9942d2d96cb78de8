"""scipy.integrate in both halves: programs that solve an ODE with ``odeint`` (and, on the tape,
``solve_ivp``), differentiated by the transpiler (reverse, forward) and on tapes (reverse, forward,
second order), against central finite differences of the same programs run by scipy at tight
tolerances.  And the refusals, each a clear error saying what to do."""

import types

import numpy as np
import pytest

pytest.importorskip("scipy")

import scipy.integrate as si  # noqa: E402

import runtime as tf  # noqa: E402
from runtime import scipy as sp  # noqa: E402
from tests.fd import assert_close, numeric_grad  # noqa: E402

EPS = 1e-4          # finite differences of a solver: its error (~1e-11) over EPS stays small
TS = np.linspace(0.0, 1.2, 6)
A = np.array([[-0.1, 0.9], [-0.8, -0.2]])


def dynamics(y, t, params, k):
    """A small network as the right-hand side (as autograd's ode_net), plus a damping parameter."""
    for W, b in params:
        y = np.tanh(np.dot(y, W) + b)
    return y - k * np.cos(t) * y


def fit(params, k, y0):
    path = si.odeint(dynamics, y0, TS, (params, k), rtol=1e-11, atol=1e-11)
    return np.sum((path - np.sin(TS)[:, None]) ** 2)


def forced(t, y, k):
    return np.stack([y[1], -k * y[0] - 0.2 * y[1] + np.sin(2.0 * t)])


def ivp_fit(k, y0):
    sol = si.solve_ivp(forced, (0.0, 2.0), y0, method="DOP853", t_eval=TS, args=(k,), rtol=1e-11, atol=1e-11)
    return np.sum(sol.y ** 2)


def on_tensors(program):
    """The program with scipy.integrate read as runtime.scipy.integrate (what a tape program imports)."""
    return types.FunctionType(program.__code__, {**program.__globals__, "si": sp.integrate}, program.__name__)


R = np.random.default_rng(3)
PARAMS = [(0.6 * R.standard_normal((2, 4)), 0.1 * R.standard_normal(4)),
          (0.6 * R.standard_normal((4, 2)), 0.1 * R.standard_normal(2))]
K, Y0 = 0.4, np.array([0.3, -0.6])


def fd_params(f):
    """Finite-difference gradient of f(params) for a list of (W, b) pairs."""
    out = []
    for i, (W, b) in enumerate(PARAMS):
        def with_w(x, i=i):
            return f([(x, PARAMS[j][1]) if j == i else PARAMS[j] for j in range(len(PARAMS))])

        def with_b(x, i=i):
            return f([(PARAMS[j][0], x) if j == i else PARAMS[j] for j in range(len(PARAMS))])
        out.append((numeric_grad(with_w, W, EPS), numeric_grad(with_b, b, EPS)))
    return out


def test_transpiler_reverse_mode_nested_parameters_and_initial_state():
    from transpiler import grad
    g_params, g_k, g_y0 = grad(fit, wrt=(0, 1, 2))(PARAMS, K, Y0)
    for (gw, gb), (ww, wb) in zip(g_params, fd_params(lambda p: fit(p, K, Y0))):
        assert_close(gw, ww, atol=1e-6, what="W")
        assert_close(gb, wb, atol=1e-6, what="b")
    assert_close(g_k, numeric_grad(lambda k: fit(PARAMS, k, Y0), K, EPS), atol=1e-6, what="k")
    assert_close(g_y0, numeric_grad(lambda y: fit(PARAMS, K, y), Y0, EPS), atol=1e-6, what="y0")


def coupled(y, t, k, B):
    return -k * y + np.dot(B, np.sin(y)) * t


def simple(k, y0):
    return np.sum(si.odeint(coupled, y0, TS, (k, A), rtol=1e-11, atol=1e-11) ** 2)


def test_transpiler_forward_mode():
    from transpiler import jvp
    d = np.array([0.4, -1.0])
    _, got = jvp(simple, (K, Y0), (0.7, d))
    want = (simple(K + EPS * 0.7, Y0 + EPS * d) - simple(K - EPS * 0.7, Y0 - EPS * d)) / (2 * EPS)
    assert_close(got, want, atol=1e-6, what="jvp")


def test_transpiler_refuses_second_order_and_solve_ivp():
    from transpiler import TranspileError, grad
    from transpiler import jvp as transpiler_jvp
    with pytest.raises(TranspileError, match="second derivatives through scipy.integrate.odeint are not "
                                             "computed by the transpiler"):
        grad(grad(fit, wrt=1), wrt=1)(PARAMS, K, Y0)

    def positional(k, y0):
        sol = si.solve_ivp(forced, (0.0, 2.0), y0, "RK45", TS)
        return np.sum(sol.y)
    with pytest.raises(TranspileError, match="reading the attribute `.y` of a differentiable value"):
        grad(positional, wrt=1)(K, Y0)             # reverse mode meets `sol.y` first
    with pytest.raises(TranspileError, match="solve_ivp is not differentiated by the transpiler"):
        transpiler_jvp(positional, (K, Y0), (0.0, np.ones(2)))


def test_tape_reverse_forward_and_second_order():
    on_tape = on_tensors(fit)
    params = [(tf.constant(W), tf.constant(b)) for W, b in PARAMS]
    k, y0 = tf.constant(K, dtype=tf.float64), tf.constant(Y0)
    with tf.GradientTape() as outer:
        outer.watch(k)
        with tf.GradientTape() as tape:
            tape.watch([params, k, y0])
            loss = on_tape(params, k, y0)
        g_params, g_k, g_y0 = tape.gradient(loss, [params, k, y0])
    for (gw, gb), (ww, wb) in zip(g_params, fd_params(lambda p: fit(p, K, Y0))):
        assert_close(gw.numpy(), ww, atol=1e-6, what="W")
        assert_close(gb.numpy(), wb, atol=1e-6, what="b")
    assert_close(g_k.numpy(), numeric_grad(lambda x: fit(PARAMS, x, Y0), K, EPS), atol=1e-6, what="k")
    assert_close(g_y0.numpy(), numeric_grad(lambda y: fit(PARAMS, K, y), Y0, EPS), atol=1e-6, what="y0")
    hkk = outer.gradient(g_k, k).numpy()
    want = (fit(PARAMS, K + 1e-3, Y0) - 2 * fit(PARAMS, K, Y0) + fit(PARAMS, K - 1e-3, Y0)) / 1e-6
    assert abs(hkk - want) <= 1e-4 * max(1.0, abs(want)), (hkk, want)

    with tf.autodiff.ForwardAccumulator(y0, tf.constant([1.0, 0.5], dtype=tf.float64)) as acc:
        loss = on_tape(params, k, y0)
    want = (fit(PARAMS, K, Y0 + EPS * np.array([1.0, 0.5])) - fit(PARAMS, K, Y0 - EPS * np.array([1.0, 0.5]))) \
        / (2 * EPS)
    assert_close(acc.jvp(loss).numpy(), want, atol=1e-6, what="ForwardAccumulator")


def test_tape_solve_ivp():
    k, y0 = tf.constant(1.3, dtype=tf.float64), tf.constant([1.0, 0.0], dtype=tf.float64)
    with tf.GradientTape() as tape:
        tape.watch([k, y0])
        loss = on_tensors(ivp_fit)(k, y0)
    g_k, g_y0 = tape.gradient(loss, [k, y0])
    assert_close(g_k.numpy(), numeric_grad(lambda x: ivp_fit(x, np.array([1.0, 0.0])), 1.3, EPS), atol=1e-6)
    assert_close(g_y0.numpy(), numeric_grad(lambda y: ivp_fit(1.3, y), np.array([1.0, 0.0]), EPS), atol=1e-6)
    assert_close(loss.numpy(), ivp_fit(1.3, np.array([1.0, 0.0])), rtol=1e-12, what="the value is scipy's")


@pytest.mark.parametrize("options, match", [
    (dict(), "differentiated at the times given by t_eval="),
    (dict(t_eval=TS, events=lambda t, y, k: y[0]), r"solve_ivp\(events=...\) is not differentiated"),
    (dict(t_eval=TS, dense_output=True), r"solve_ivp\(dense_output=True\) is not differentiated"),
])
def test_tape_solve_ivp_refusals(options, match):
    k = tf.constant(1.3, dtype=tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(k)
        with pytest.raises(NotImplementedError, match=match):
            sp.integrate.solve_ivp(forced, (0.0, 2.0), [1.0, 0.0], args=(k,), **options)


def test_the_namespace():
    assert sp.integrate.quad is si.quad                     # not differentiated: scipy's own
    y = sp.integrate.odeint(dynamics, Y0, TS, (PARAMS, K))  # plain arrays: scipy's values
    np.testing.assert_allclose(np.asarray(y), si.odeint(dynamics, Y0, TS, (PARAMS, K)), rtol=1e-12)
    with tf.GradientTape() as tape:
        x = tf.constant(Y0)
        tape.watch(x)
        with pytest.raises(TypeError, match="runtime.scipy.integrate.odeint"):
            si.odeint(dynamics, x, TS, (PARAMS, K))
