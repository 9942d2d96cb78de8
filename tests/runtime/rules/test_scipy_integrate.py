"""scipy.integrate rules (runtime/rules/scipy_integrate/): the continuous adjoint (VJP) and the forward
sensitivities (JVP) of an ODE's path with respect to the initial state, the times and the parameters
in ``args``, against central finite differences of the solver itself at tight tolerances.

The right-hand side is differentiated by each half in turn: ``scipy.integrate.odeint``'s rule with a
plain function (the transpiler's VJP/JVP of it) and ``ode_path`` with an ``OnTape`` function (the
tape's).  Second order runs the rules on tensors under nested tapes.  The family's registry is
enumerated: a rule without a case here fails ``test_every_rule_has_a_case``.
"""

import numpy as np
import pytest

pytest.importorskip("scipy")

import scipy.integrate as si  # noqa: E402

import runtime as tf  # noqa: E402
import runtime.scipy.integrate  # noqa: E402,F401  (the tape differentiates OnTape functions)
import transpiler  # noqa: E402,F401  (the transpiler differentiates plain functions)
from runtime.rules import RULES, callees, load_all, lookup  # noqa: E402
from runtime.rules import scipy_integrate as I  # noqa: E402
from runtime.rules.refused import NoDerivative  # noqa: E402
from runtime.rules.scipy_integrate.solvers import Ivp, Odeint  # noqa: E402
from tests.fd import assert_close, numeric_grad  # noqa: E402

TIGHT = dict(rtol=1e-11, atol=1e-11)
EPS = 1e-4      # (the solver's own error, ~1e-11, over EPS stays below the tolerances; EPS^2 too)


# --- right-hand sides ------------------------------------------------------------------------------

def mixed(y, t, arg1, arg2):
    """autograd's test function: t enters directly, two array parameters."""
    return -np.sqrt(t) - y + arg1 - np.mean((y + arg2) ** 2)


def oscillator(y, t, k, A):
    return -k * y + np.dot(A, np.sin(y)) * t


def layers(y, t, params, scale):
    """A small network (a list of (W, b) pairs), an integer that gets no gradient."""
    for W, b in params:
        y = np.tanh(np.dot(y, W) + b)
    return y / scale


def decay(y, t, k):
    return -k * y * (1.0 + 0.5 * np.cos(t))


def forced(t, y, k):
    """t first (odeint's tfirst=True, solve_ivp's order)."""
    return np.stack([y[1], -k * y[0] - 0.3 * y[1] + np.sin(2.0 * t)])


R = np.random.default_rng(7)
SYSTEMS = {
    "mixed": (mixed, R.standard_normal(3), np.linspace(0.1, 0.4, 4), (R.standard_normal(3), R.standard_normal(3)), {}),
    "oscillator": (oscillator, np.array([1.0, -0.5]), np.linspace(0.0, 1.0, 5),
                   (0.7, np.array([[0.1, 0.3], [-0.2, 0.4]])), {}),
    "nested args": (layers, np.array([0.5, -0.3]), np.linspace(0.0, 0.6, 3),
                    ([(0.5 * R.standard_normal((2, 3)), 0.1 * R.standard_normal(3)),
                      (0.5 * R.standard_normal((3, 2)), 0.1 * R.standard_normal(2))], 2), {}),
    "scalar state": (decay, 1.5, np.array([0.0, 0.3, 1.1]), (0.8,), {}),
    "backwards in time": (decay, np.array([1.0, 2.0]), np.array([1.0, 0.4, -0.2]), (0.8,), {}),
    "one time": (decay, np.array([1.0, 2.0]), np.array([0.5]), (0.8,), {}),
    "tfirst": (forced, np.array([1.0, 0.0]), np.linspace(0.0, 2.0, 4), (1.3,), dict(tfirst=True)),
    "vector atol": (oscillator, np.array([1.0, -0.5]), np.linspace(0.0, 1.0, 3),
                    (0.7, np.array([[0.1, 0.3], [-0.2, 0.4]])), dict(atol=np.array([1e-12, 1e-11]))),
}


# --- finite differences of the solver ------------------------------------------------------------

def leaves(x):
    if isinstance(x, (tuple, list)):
        return [leaf for item in x for leaf in leaves(item)]
    return [x]


def rebuild(x, values):
    """``x`` with its float leaves replaced, in order, by ``values``."""
    it = iter(values)

    def build(a):
        if isinstance(a, (tuple, list)):
            return type(a)(build(v) for v in a)
        return next(it) if _float(a) else a
    return build(x)


def _float(a):
    return isinstance(a, float) or isinstance(a, np.ndarray) and a.dtype.kind == "f"


def check_system(name, run, vjp, jvp, rng, system=None):
    """``run(y0, t, args) -> path``; ``vjp(k, g, path, y0, t, args)``, ``jvp(k, d, path, y0, t, args)`` the
    rules for y0 (k=0), t (1), args (2)."""
    func, y0, t, args, options = system or SYSTEMS[name]
    path = run(y0, t, args)
    g = rng.standard_normal(np.shape(path))
    floats = [a for a in leaves(args) if _float(a)]

    def loss(y0_, t_, args_):
        return float(np.sum(g * run(y0_, t_, args_)))

    want = [numeric_grad(lambda x: loss(x, t, args), y0, EPS), numeric_grad(lambda x: loss(y0, x, args), t, EPS)]
    for j, leaf in enumerate(floats):
        def at(x, j=j):
            values = list(floats)
            values[j] = float(x) if isinstance(leaf, float) else x
            return loss(y0, t, rebuild(args, values))
        want.append(numeric_grad(at, leaf, EPS))
    got = [vjp(0, g, path, y0, t, args), vjp(1, g, path, y0, t, args)]
    got_args = vjp(2, g, path, y0, t, args)
    got += [leaf for leaf, arg in zip(leaves(got_args), leaves(args)) if _float(arg)]
    assert len(got) == len(want)
    for k, (a, b) in enumerate(zip(got, want)):
        assert_close(a, b, rtol=1e-5, atol=1e-6, what=f"{name}: VJP of {['y0', 't'][k] if k < 2 else 'args'} ({k})")

    tangents = [rng.standard_normal(np.shape(y0)), rng.standard_normal(np.shape(t)),
                rebuild(args, [rng.standard_normal(np.shape(a)) if np.ndim(a) else float(rng.standard_normal())
                               for a in floats])]

    def moved(s, k):
        y0_ = y0 + s * tangents[0] if k == 0 else y0
        t_ = t + s * tangents[1] if k == 1 else t
        args_ = rebuild(args, [a + s * d for a, d in zip(floats, [x for x in leaves(tangents[2]) if _float(x)])]) \
            if k == 2 else args
        return run(y0_, t_, args_)
    for k in range(3):
        if k == 2 and not floats:
            continue
        want_t = (moved(EPS, k) - moved(-EPS, k)) / (2 * EPS)
        assert_close(jvp(k, tangents[k], path, y0, t, args), want_t, rtol=1e-5, atol=1e-6,
                     what=f"{name}: JVP along {['y0', 't', 'args'][k]}")


@pytest.mark.parametrize("name", list(SYSTEMS))
def test_odeint_rule_with_the_transpiler_differentiating_the_function(name):
    func, _, _, _, options = SYSTEMS[name]
    opts = dict(TIGHT, **options)
    rule = lookup(si.odeint)
    check_system(
        name, lambda y0, t, args: si.odeint(func, y0, t, args=args, **opts),
        lambda k, g, path, y0, t, args: rule.vjp(k + 1)(g, path, func, y0, t, args, **opts),
        lambda k, d, path, y0, t, args: rule.jvp(k + 1)(d, path, func, y0, t, args, **opts),
        np.random.default_rng(1))


@pytest.mark.parametrize("name", ["mixed", "nested args", "backwards in time", "tfirst"])
def test_ode_path_rule_with_the_tape_differentiating_the_function(name):
    func, _, _, _, options = SYSTEMS[name]
    solver, on_tape = Odeint(dict(TIGHT, **options)), callees.OnTape(func)
    rule = lookup(I.ode_path)
    check_system(
        name, lambda y0, t, args: I.ode_path(solver, on_tape, y0, t, args),
        lambda k, g, path, y0, t, args: rule.vjp(k + 2)(g, path, solver, on_tape, y0, t, args),
        lambda k, d, path, y0, t, args: rule.jvp(k + 2)(d, path, solver, on_tape, y0, t, args),
        np.random.default_rng(2))


@pytest.mark.parametrize("method", ["RK45", "DOP853", "Radau", "BDF", "LSODA"])
def test_solve_ivp_methods(method):
    """The same rules with solve_ivp's solvers (each method's own backward solve)."""
    func = SYSTEMS["tfirst"][0]
    solver, on_tape = Ivp(method, dict(rtol=1e-11, atol=1e-11)), callees.OnTape(func)
    rule = lookup(I.ode_path)
    check_system(
        f"solve_ivp {method}", lambda y0, t, args: I.ode_path(solver, on_tape, y0, t, args),
        lambda k, g, path, y0, t, args: rule.vjp(k + 2)(g, path, solver, on_tape, y0, t, args),
        lambda k, d, path, y0, t, args: rule.jvp(k + 2)(d, path, solver, on_tape, y0, t, args),
        np.random.default_rng(3), system=SYSTEMS["tfirst"])


# --- second order: the rules on tensors, under nested tapes ------------------------------------------

@pytest.mark.parametrize("wrt", ["y0", "t", "k"])
def test_second_order_on_the_tape(wrt):
    func, y0, t, (k, A), _ = SYSTEMS["oscillator"]
    solver, on_tape = Odeint(dict(rtol=1e-10, atol=1e-10)), callees.OnTape(func)
    w = np.random.default_rng(4).standard_normal((len(t), 2))
    values = {"y0": y0, "t": t, "k": np.float64(k)}
    u = np.random.default_rng(5).standard_normal(np.shape(values[wrt]))
    v = np.random.default_rng(6).standard_normal(np.shape(values[wrt]))

    def loss(x):
        given = dict(values, **{wrt: x})
        return np.sum(w * I.ode_path(solver, on_tape, given["y0"], given["t"], (given["k"], A)))

    x = tf.constant(values[wrt])
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            out = loss(x)
        g = inner.gradient(out, x)
        gv = tf.reduce_sum(g * v)
    got = float(np.sum(outer.gradient(gv, x).numpy() * u))
    h = 1e-4
    x0 = values[wrt]
    want = (loss(x0 + h * u + h * v) - loss(x0 + h * u - h * v) - loss(x0 - h * u + h * v)
            + loss(x0 - h * u - h * v)) / (4 * h * h)
    assert abs(got - want) <= 1e-4 * max(1.0, abs(want)), f"second order in {wrt}: {got} vs {want}"


# --- refusals ----------------------------------------------------------------------------------------

def test_refusals_are_clear_errors():
    func, y0, t, args, _ = SYSTEMS["oscillator"]
    rule = lookup(si.odeint)
    path, info = si.odeint(func, y0, t, args=args, full_output=True)
    with pytest.raises(NotImplementedError, match=r"odeint\(full_output=True\) is not differentiated"):
        rule.vjp(1)(np.ones_like(path), (path, info), func, y0, t, args, full_output=True)
    with pytest.raises(RuntimeError, match="needs the transpiler to differentiate it: import transpiler"):
        callees._provider({}, func, "a gradient")       # (as when the transpiler was never imported)
    for slot in lookup(si.solve_ivp).vjps + lookup(I.odeint_vjp_y0).vjps:
        assert isinstance(slot, NoDerivative)


def _family_rules():
    load_all()
    rules = {}
    for rule in RULES.values():
        modules = {getattr(v, "__module__", "") or "" for v in rule.vjps if v is not None}
        if rule.differentiable and any(m.startswith("runtime.rules.scipy_integrate") for m in modules):
            rules[id(rule)] = rule
    return list(rules.values())


COVERED = {si.odeint: "test_odeint_rule_with_the_transpiler_differentiating_the_function",
           I.ode_path: "test_ode_path_rule_with_the_tape_differentiating_the_function",
           si.solve_ivp: "test_refusals_are_clear_errors (refused in the transpiler)"}
COVERED.update({fn: "test_refusals_are_clear_errors (the transpiler's second order)"
                for fn in (I.odeint_vjp_y0, I.odeint_vjp_t, I.odeint_vjp_args, I.odeint_jvp_y0, I.odeint_jvp_t,
                           I.odeint_jvp_args)})


def test_every_rule_has_a_case():
    covered = {lookup(fn) for fn in COVERED}
    missing = sorted(r.name for r in _family_rules() if r not in covered)
    assert not missing, f"scipy.integrate rules without a case in {__file__}: {missing}"
