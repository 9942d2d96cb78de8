"""On the tape every primitive's keyword parameters are differentiated exactly or refused.

Enumerates the rule specs: each argument the spec differentiates is passed by keyword (where numpy
accepts that) as a watched tensor, and its gradient compared with finite differences of the
primitive; each other float argument passed by keyword as a watched tensor must be refused (a
located TypeError) or, where a rule differentiates it after all, be exact.  issue: np.average(x,
weights=w) gave zeros w.r.t. w, np.select(..., default=3 * x) a wrong tangent (both were fixed by
moving differentiated keywords to their positions); this keeps every keyword honest.  A refusal
is a TypeError naming the tape (or, where numpy's own code calls an ndarray method on the tensor, an
AttributeError naming experimental_enable_numpy_behavior).
"""

import inspect
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import runtime as tf
from runtime.rules import lookup
from tests.fd import assert_close, numeric_grad
from tests.runtime.rules.rule_specs import all_specs


def _signature(spec):
    rule = lookup(spec.fn)
    fn = next((f for f in rule.vjps if f is not None), None) if rule is not None else None
    return rule, (inspect.signature(fn) if fn is not None else None)


def _keyword_params(spec):
    rule, sig = _signature(spec)
    if sig is None:
        return []
    params = list(sig.parameters.values())[2:]
    return [(i, p.name) for i, p in enumerate(params) if p.kind is p.POSITIONAL_OR_KEYWORD]


SPECS = [s for s in all_specs() if not s.scalar and _keyword_params(s)]


def _quiet(f, *args, **kwargs):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return f(*args, **kwargs)


def _as_keyword(args, kwargs, i, name):
    """The call with argument ``i`` passed as ``name=`` (and everything after it by keyword too)."""
    return list(args[:i]), {**kwargs, name: args[i], **{f"__after{j}": a for j, a in enumerate(args[i + 1:])}}


def _call(fn, args, kwargs, params):
    """Keywords named __afterN stand for the positional arguments after the keyword one."""
    after = [kwargs.pop(k) for k in sorted(k for k in list(kwargs) if k.startswith("__after"))]
    names = [n for _, n in params]
    start = len(args) + 1
    extra = dict(zip(names[start:start + len(after)], after))
    return fn(*args, **kwargs, **extra)


def _tape_gradient(fn, args, kwargs, params, i, name, w):
    x = tf.constant(np.asarray(args[i], dtype=np.float64))
    pos, kw = _as_keyword(args, kwargs, i, name)
    kw[name] = x
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = np.sum(_quiet(_call, fn, pos, dict(kw), params) * w)
    g = tape.gradient(y, x)
    return np.zeros(np.shape(args[i])) if g is None else g.numpy()


def _check_keyword(spec, args, kwargs, params, i, name, rng):
    """'exact' (the tape's gradient of argument ``i`` passed as ``name=`` matches finite differences),
    'refused' (a located TypeError/AttributeError saying what to do) or 'skipped' (not a float
    argument, numpy takes it positionally only, or off its domain)."""
    if i == 0 or i >= len(args) or name in kwargs:
        return "skipped"
    a = args[i]
    if not (isinstance(a, float) or isinstance(a, np.ndarray) and a.dtype.kind == "f" and a.size):
        return "skipped"
    pos, kw = _as_keyword(args, kwargs, i, name)
    try:
        ans = _quiet(_call, spec.fn, pos, dict(kw), params)
    except TypeError:
        return "skipped"               # numpy takes it positionally only
    if isinstance(ans, (tuple, list)) or not np.all(np.isfinite(ans)):
        return "skipped"
    w = rng.standard_normal(np.shape(ans))

    def phi(v):
        p2, k2 = _as_keyword(args, kwargs, i, name)
        k2[name] = v
        return np.sum(_quiet(_call, spec.fn, p2, k2, params) * w)
    try:
        want = numeric_grad(phi, np.asarray(a, dtype=np.float64))
    except ValueError:
        return "skipped"               # at the edge of its domain (a quantile of 1)
    what = f"{spec.label}({name}=<tensor>)"
    try:
        got = _tape_gradient(spec.fn, args, kwargs, params, i, name, w)
    except TypeError as e:             # refused, saying why and what to do instead
        assert "GradientTape" in str(e) or "gradient" in str(e), f"{what}: {e}"
        return "refused"
    except AttributeError as e:        # numpy's own code calls an ndarray method on the tensor
        assert "experimental_enable_numpy_behavior" in str(e), f"{what}: {e}"
        return "refused"
    assert_close(got, want, 1e-5, 1e-6, what=what)
    return "exact"


@pytest.mark.parametrize("spec", SPECS, ids=[s.label for s in SPECS])
@settings(max_examples=1, derandomize=True, deadline=None, database=None, phases=[Phase.generate],
          suppress_health_check=list(HealthCheck))
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_keywords_are_differentiated_or_refused(spec, data, seed):
    rng = np.random.default_rng(seed)
    args, kwargs = spec.make(data.draw, rng)
    params = _keyword_params(spec)
    for i, name in params:
        _check_keyword(spec, args, kwargs, params, i, name, rng)


# The keywords of issue 24 (np.average(x, weights=w) gave zeros, np.select(..., default=3 * x) a wrong
# tangent): differentiated exactly, never merely refused.  (np.select's default= alone is refused:
# numpy's dispatcher does not look at it, so numpy converts the tensor; see the select tests below.)
EXACT = [("average", "weights"), ("clip", "a_min"), ("clip", "a_max")]


@pytest.mark.parametrize("label,name", EXACT)
@settings(max_examples=3, derandomize=True, deadline=None, database=None, phases=[Phase.generate],
          suppress_health_check=list(HealthCheck))
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_the_named_keywords_are_differentiated_exactly(label, name, data, seed):
    spec = next(s for s in SPECS if s.label == label)
    rng = np.random.default_rng(seed)
    args, kwargs = spec.make(data.draw, rng)
    params = _keyword_params(spec)
    i = next(i for i, n in params if n == name)
    assert _check_keyword(spec, args, kwargs, params, i, name, rng) == "exact"


def _select_program(x):
    return np.sum(np.select([x < -.5, x < .5], [x ** 2, np.sin(x)], default=3 * x) * np.arange(1.0, 6.0))


def test_select_default_with_tensor_choices_is_exact_in_both_modes():
    """issue 24's program: the choices are tensors, so numpy hands the call to the tape, and the
    default's gradient flows (reverse and forward against central differences)."""
    x0 = np.array([-1.2, -0.7, 0.1, 0.4, 0.9])
    want = numeric_grad(_select_program, x0)
    x = tf.constant(x0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = _select_program(x)
    assert_close(tape.gradient(y, x).numpy(), want, what="reverse")
    u = np.array([0.3, -1.0, 0.5, 2.0, -0.4])
    with tf.autodiff.ForwardAccumulator(x, tf.constant(u)) as acc:
        y = _select_program(x)
    assert_close(acc.jvp(y).numpy(), want @ u, what="forward")


def test_select_default_alone_is_refused_not_dropped():
    x = tf.constant(np.array([-1.0, 0.0, 1.0]))
    with tf.GradientTape() as tape:
        tape.watch(x)
        with pytest.raises(TypeError, match="drop its gradient"):
            np.select([np.array([True, False, False])], [np.ones(3)], default=3 * x)


def test_the_audit_reaches_keyword_parameters():
    labels = {s.label for s in SPECS}
    assert {"average", "clip", "interp", "linspace", "pad", "select"} <= labels, labels
    assert len(SPECS) >= 40
