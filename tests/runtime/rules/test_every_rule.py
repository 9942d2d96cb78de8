"""Every registered derivative rule against central finite differences in float64.

The test enumerates the registry: each differentiable rule needs a spec in
``tests/runtime/rules/rule_specs`` (or an entry in ``COVERED_ELSEWHERE`` naming the test that checks
it), so no rule can exist untested.  For each spec hypothesis draws shapes (broadcasting
ones for binary functions), axes and values, and checks for each differentiated argument:

* first order: the VJP rule against the finite-difference VJP, the JVP rule against the
  finite-difference directional derivative;
* second order: <u, H v> of phi = <w, f(x)> by two nested GradientTapes (the VJP rule run on
  tensors, so its own operations' rules differentiate it) against a finite difference of
  finite differences of the primitive itself (four evaluations of f): a wrong first-order
  rule fails here too.  Scalar ``math`` rules, which the tape cannot run, compare a finite
  difference of the VJP rule with the same independent reference.

Few examples per rule by default (``REGISTRY_EXAMPLES``); HYPOTHESIS_PROFILE=thorough gives more.
"""

import importlib
import os

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import runtime as tf
from runtime.rules import RULES, load_all, lookup
from runtime.rules import __main__ as rules_main
from tests.fd import assert_close
from tests.runtime.rules.rule_specs import COVERED_ELSEWHERE, all_specs

SPECS = all_specs()
EXAMPLES = int(os.environ.get("REGISTRY_EXAMPLES", max(3, settings.default.max_examples // 10)))
EPS = 1e-6


def differentiable_rules():
    """The rule table of runtime/rules (not the rules tapes add at run time for transpiled functions
    and custom gradients)."""
    load_all()
    return {r for r in RULES.values() if r.differentiable and _static(r)}


def _static(rule):
    fn = next((f for f in rule.vjps if f is not None), None)
    return fn is not None and (getattr(fn, "__module__", "") or "").startswith("runtime.rules")


# linalg/ and fft.py rules are enumerated the same way by test_rules_linalg_registry.py
# (test_every_family_rule_has_a_sample), with decomposition-aware inputs; scipy_linalg/ by
# test_scipy_linalg.py (test_every_rule_has_a_case), with tuple arguments and complex inputs;
# scipy_integrate/ by test_scipy_integrate.py, against finite differences of the ODE solver.
OWN_REGISTRY_TEST = ("runtime.rules.linalg.", "runtime.rules.fft", "runtime.rules.scipy_linalg.",
                     "runtime.rules.scipy_integrate.")


def _module(rule):
    fn = next((f for f in rule.vjps if f is not None), None)
    return getattr(fn, "__module__", "") or ""


def test_every_rule_has_a_spec():
    covered = {lookup(s.fn) for s in SPECS}
    missing = sorted(r.name for r in differentiable_rules() - covered
                     if r.name not in COVERED_ELSEWHERE and not _module(r).startswith(OWN_REGISTRY_TEST))
    assert not missing, f"rules without a test spec in tests/runtime/rules/rule_specs: {missing}"


def test_covered_elsewhere_names_real_tests():
    names = {r.name for r in differentiable_rules()}
    for name, where in COVERED_ELSEWHERE.items():
        assert name in names, f"{name} is no longer a registered rule: drop it from COVERED_ELSEWHERE"
        module, test = where.split("::")
        assert hasattr(importlib.import_module(module), test), where


def test_primitive_count():
    """Issue 12: at least 300 callables with VJP and JVP rules (the documentation's primitives table counts them the same way)."""
    families, _ = rules_main.collect()
    assert sum(len(names) for names in families.values()) >= 300


# --- helpers ---------------------------------------------------------------------------------------

def _is_seq(x):
    return isinstance(x, (list, tuple))


def _flat(y):
    if _is_seq(y) or isinstance(y, np.ndarray) and y.dtype == object:
        return [np.asarray(v, dtype=np.float64) for v in y]
    return [np.asarray(y, dtype=np.float64)]


def _replace(args, k, j, value, scalar):
    value = float(value) if scalar else value
    new = list(args)
    if j is None:
        new[k] = value
    else:
        seq = list(new[k])
        seq[j] = value
        new[k] = type(args[k])(seq)
    return new


def _get(args, k, j):
    return np.asarray(args[k] if j is None else args[k][j], dtype=np.float64)


def _slots(args, k):
    return list(range(len(args[k]))) if _is_seq(args[k]) else [None]


def _phi(fn, kwargs, weights):
    """phi(args) = sum_i <w_i, f(args)_i>: the scalar whose derivatives the checks compare."""
    def phi(args):
        return sum(float(np.sum(w * o)) for w, o in zip(weights, _flat(fn(*args, **kwargs))))
    return phi


def _fd_grad(phi, args, k, j, scalar):
    x = np.array(_get(args, k, j), order="C")        # C order: the reshapes below are views
    out = np.zeros_like(x)
    flat = x.reshape(-1)
    for i in range(flat.size):
        old = flat[i]
        flat[i] = old + EPS
        fp = phi(_replace(args, k, j, x.copy(), scalar))
        flat[i] = old - EPS
        fm = phi(_replace(args, k, j, x.copy(), scalar))
        flat[i] = old
        out.reshape(-1)[i] = (fp - fm) / (2 * EPS)
    return out


def _shift(args, k, directions, h, scalar):
    """args with argument k (each slot j of a sequence) moved by h * direction."""
    for j, d in zip(_slots(args, k), directions):
        args = _replace(args, k, j, _get(args, k, j) + h * d, scalar)
    return args


def _what(spec, k, args, kwargs):
    return f"{spec.label} arg {k} shapes={[np.shape(a) if not _is_seq(a) else [np.shape(b) for b in a] for a in args]} kwargs={kwargs}"


# --- first order -----------------------------------------------------------------------------------

def _symmetrized(fn):
    """fn of the symmetric part of its first argument (for rules of functions of symmetric matrices)."""
    def f(x, *rest, **kwargs):
        return fn((x + np.swapaxes(x, -1, -2)) / 2, *rest, **kwargs)
    return f


def check_first_order(spec, args, kwargs, rng):
    fn, rule = spec.fn, lookup(spec.fn)
    if spec.symmetric:
        fn = _symmetrized(fn)
    ans = fn(*args, **kwargs)
    outs = _flat(ans)
    weights = [rng.standard_normal(np.shape(o)) for o in outs]
    g = weights if (_is_seq(ans) or isinstance(ans, np.ndarray) and ans.dtype == object) else weights[0]
    if spec.scalar and not _is_seq(ans):
        g = float(g)
    phi = _phi(fn, kwargs, weights)
    for k in spec.argnums:
        what = _what(spec, k, args, kwargs)
        vjp, jvp = rule.vjp(k), rule.jvp(k)
        assert vjp is not None and jvp is not None, f"{rule.name}: no VJP/JVP for argument {k}"
        got = vjp(g, ans, *args, **kwargs)
        slots = _slots(args, k)
        got_parts = list(got) if slots != [None] else [got]
        assert len(got_parts) == len(slots), what
        for j, part in zip(slots, got_parts):
            want = _fd_grad(phi, args, k, j, spec.scalar)
            assert_close(np.asarray(part, dtype=np.float64).reshape(want.shape) if np.size(part) == want.size
                         and np.ndim(part) == 0 else part, want, what=f"VJP {what} slot {j}")
        directions = [rng.standard_normal(np.shape(_get(args, k, j))) for j in slots]
        if spec.symmetric:
            directions = [(d + np.swapaxes(d, -1, -2)) / 2 for d in directions]
        t = directions[0] if slots == [None] else [d for d in directions]
        if spec.scalar:
            t = float(t) if slots == [None] else [float(d) for d in t]
        got_t = jvp(t, ans, *args, **kwargs)
        plus = _flat(fn(*_shift(args, k, directions, EPS, spec.scalar), **kwargs))
        minus = _flat(fn(*_shift(args, k, directions, -EPS, spec.scalar), **kwargs))
        want_t = [(p - m) / (2 * EPS) for p, m in zip(plus, minus)]
        seq_out = _is_seq(ans) or isinstance(ans, np.ndarray) and ans.dtype == object
        for gt, wt in zip(_flat(got_t) if seq_out else [got_t], want_t):
            assert_close(np.broadcast_to(np.asarray(gt, dtype=np.float64), wt.shape) if np.ndim(gt) == 0 else gt,
                         wt, what=f"JVP {what}")


# --- second order ----------------------------------------------------------------------------------

H = 1e-4


def _fd_of_fd(phi, args, k, u, v, scalar):
    """<u, Hessian(phi) v> by finite differences of finite differences (the primitive only).

    Two step sizes must agree: a kink (max, mod, sort) within a step of x makes the reference
    meaningless there, and hypothesis draws another input."""
    def at(a, b, h):
        x = _get(args, k, None) + a * h * u + b * h * v
        return phi(_replace(args, k, None, x, scalar))

    def mixed(h):
        return (at(1, 1, h) - at(1, -1, h) - at(-1, 1, h) + at(-1, -1, h)) / (4 * h * h)
    fine, coarse = mixed(H), mixed(4 * H)
    assume(abs(fine - coarse) <= 1e-2 * abs(fine) + 1e-3 * (1 + abs(fine)))
    return fine


def check_second_order(spec, args, kwargs, rng):
    fn, rule = spec.fn, lookup(spec.fn)
    if spec.symmetric:
        fn = _symmetrized(fn)
    outs = _flat(fn(*args, **kwargs))
    weights = [rng.standard_normal(np.shape(o)) for o in outs]
    phi = _phi(fn, kwargs, weights)
    for k in spec.argnums:
        if _is_seq(args[k]):
            continue
        x0 = _get(args, k, None)
        u, v = rng.standard_normal(x0.shape), rng.standard_normal(x0.shape)
        want = _fd_of_fd(phi, args, k, u, v, spec.scalar)
        if spec.scalar:
            vjp = rule.vjp(k)
            w = weights[0] if not _is_seq(fn(*args, **kwargs)) else weights

            def rule_grad(h):
                a = _replace(args, k, None, x0 + h * v, True)
                return float(vjp(float(w) if np.ndim(w) == 0 else w, fn(*a, **kwargs), *a, **kwargs))
            got = (rule_grad(H) - rule_grad(-H)) / (2 * H) * float(u)
        else:
            got = _tape_hvp(fn, args, kwargs, k, weights, u, v)
        assert_close(got, want, rtol=2e-4, atol=2e-4 * (1 + abs(want)),
                     what=f"second order {_what(spec, k, args, kwargs)}")


def _tape_hvp(fn, args, kwargs, k, weights, u, v):
    x = tf.constant(_get(args, k, None))
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            new = list(args)
            new[k] = x
            out = fn(*new, **kwargs)
            outs = list(out) if _is_seq(out) else [out]
            phi = sum(np.sum(o * w) for o, w in zip(outs, weights))
        g = inner.gradient(phi, x)
        if g is None:
            return 0.0
        s = np.sum(tf.convert_to_tensor(g) * v)       # (a gather's gradient is IndexedSlices)
    h = outer.gradient(s, x)
    return 0.0 if h is None else float(np.sum(np.asarray(h) * u))


# --- the test --------------------------------------------------------------------------------------

@pytest.mark.parametrize("spec", SPECS, ids=[s.label for s in SPECS])
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True)
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_rule(spec, data, seed):
    rng = np.random.default_rng(seed)
    args, kwargs = spec.make(data.draw, rng)
    with np.errstate(all="ignore"):
        check_first_order(spec, args, kwargs, rng)
        if spec.second:
            check_second_order(spec, args, kwargs, rng)


# --- the checks catch a wrong rule -------------------------------------------------------------------

def test_a_planted_wrong_rule_fails_first_and_second_order(monkeypatch):
    """tanh's VJP with a wrong derivative (1 - y instead of 1 - y^2): the first-order check fails,
    and so does the second-order one on its own (its reference never calls the rule)."""
    rule = lookup(np.tanh)

    def wrong_tanh_vjp(g, ans, x):
        return g * (1.0 - ans)

    monkeypatch.setattr(rule, "vjps", (wrong_tanh_vjp,))
    spec = next(s for s in SPECS if s.fn is np.tanh)
    args = [np.array([0.3, -0.8, 1.1])]
    with pytest.raises(AssertionError, match="VJP"):
        check_first_order(spec, args, {}, np.random.default_rng(0))
    with pytest.raises(AssertionError, match="second order"):
        check_second_order(spec, args, {}, np.random.default_rng(0))
