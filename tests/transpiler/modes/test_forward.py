"""Forward mode: jvp == gradient . direction == finite differences over every reverse-mode corpus
(tests/transpiler/corpus.py), loops included; loops stay loops in the tangent code."""

import math

import numpy as np
import pytest

from tests.fd import assert_close, numeric_jvp
from tests.transpiler import corpus as corpora
from tests.transpiler.frontend.control import test_control_flow as flow
from tests.transpiler import test_functions as corpus
from transpiler import differentiate, hvp, jvp

CASES = corpora.cases()


def _as_tuple(x):
    return x if isinstance(x, tuple) else (x,)


def directions(args, wrt, seed):
    rng = np.random.default_rng(seed)
    return tuple(rng.normal(size=np.shape(args[i])) if np.ndim(args[i]) else float(rng.normal())
                 for i in wrt)


@pytest.mark.parametrize("fn,args,wrt", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_forward_equals_reverse_equals_fd(fn, args, wrt):
    idx = corpora.wrt_indices(fn, wrt)
    tangents = directions(args, idx, 1)
    d = differentiate(fn, wrt=wrt, mode="forward")
    value, tout = d.jvp(args, tangents)
    assert_close(value, fn(*args), 1e-12, 1e-12, what=f"{fn.__name__}: value")
    full = [np.zeros(np.shape(a)) if np.ndim(a) else 0.0 for a in args]   # ints: a zero step
    for i, t in zip(idx, tangents):
        full[i] = t
    fd = numeric_jvp(fn, args, full)
    assert_close(tout, fd, 1e-5, 1e-6, what=f"{fn.__name__}: jvp vs finite differences\n{d.source}")
    assert np.shape(tout) == np.shape(fn(*args))
    # forward == reverse: <J v, w> == <v, J^T w> for a random cotangent w
    w = np.random.default_rng(2).normal(size=np.shape(tout))
    _, pullback = differentiate(fn, wrt=wrt).vjp(*args)
    grads = _as_tuple(pullback(w)) if isinstance(wrt, tuple) else (pullback(w),)
    rev = sum(float(np.sum(np.asarray(g) * t)) for g, t in zip(grads, tangents))
    assert math.isclose(float(np.sum(tout * w)), rev, rel_tol=1e-9, abs_tol=1e-9), fn.__name__


def test_functional_jvp_defaults_to_every_argument():
    x, y = corpus.A, corpus.B
    value, t = jvp(corpus.f_mul, (x, y), (np.ones_like(x), np.zeros_like(y)))
    assert_close(value, x * y)
    assert_close(t, y)


def test_single_primal_and_tangent():
    value, t = jvp(corpus.f_sin_sq, corpus.A, np.ones_like(corpus.A))
    assert_close(t, 2 * corpus.A * np.cos(corpus.A ** 2))


def test_tangents_interleave_with_primal():
    d = differentiate(corpus.f_statements, mode="forward")
    lines = [ln.strip() for ln in d.source.splitlines()]
    i = lines.index("a = x * y")
    assert lines[i + 1].startswith("da = ")
    assert "def jvp_f_statements(x, y, *, dx):" in d.source
    assert "return t5, dt5" in d.source


def test_branch_that_only_one_side_makes_active():
    def f(x):
        y = x * 2.0 if x.shape[0] > 5 else 3.0
        return x * y

    value, t = jvp(f, corpus.A, np.ones_like(corpus.A))
    assert_close(t, 3.0 * np.ones_like(corpus.A))


def test_wrong_number_of_tangents():
    d = differentiate(corpus.f_mul, wrt=(0, 1), mode="forward")
    with pytest.raises(ValueError, match="tangent"):
        d.jvp((corpus.A, corpus.B), (corpus.A,))


def test_mode_checked():
    with pytest.raises(ValueError, match="mode"):
        differentiate(corpus.f_mul, mode="sideways")


def test_forward_decorator_keeps_reverse_available():
    d = differentiate(corpus.f_sum, mode="forward")
    assert_close(d(corpus.A), corpus.f_sum(corpus.A))
    assert_close(d.grad(corpus.A), 2 * corpus.A)


from hypothesis import given  # noqa: E402

from tests.transpiler.test_random_programs import build, programs  # noqa: E402


@given(programs())
def test_random_program_forward(program):
    names, shapes, lines, seed = program
    fn, source = build(names, lines)
    rng = np.random.default_rng(seed)
    args = [rng.normal(size=s) if s else np.float64(rng.normal()) for s in shapes]
    tangents = [rng.normal(size=s) if s else np.float64(rng.normal()) for s in shapes]
    value, tout = jvp(fn, args, tangents)
    try:
        assert_close(tout, numeric_jvp(fn, args, tangents), 1e-4, 1e-5, what="jvp vs fd")
        assert np.shape(tout) == np.shape(value)
    except AssertionError as e:
        raise AssertionError(f"program:\n{source}\n{e}") from None


# --- loops stay loops ------------------------------------------------------------------------
def _loops(source):
    return [ln.strip() for ln in source.splitlines() if ln.strip().startswith(("for ", "while "))]


@pytest.mark.parametrize("fn", [flow.for_data_count, flow.while_data_exit, flow.for_nested, flow.for_break])
def test_tangent_code_of_a_loop_is_a_loop(fn):
    src = differentiate(fn, mode="forward").source
    assert _loops(src), src
    assert "stack" not in src and "pop" not in src, src      # nothing saved in forward mode


def test_tangent_code_does_not_depend_on_trip_count():
    d = differentiate(flow.for_data_count, mode="forward")
    src = d.source
    for n in (0, 1, 3, 25):
        v = np.linspace(-1.0, 1.0, 5)
        t = np.cos(np.arange(5.0))
        value, tout = d.jvp((v, n), (t,))
        assert_close(value, flow.for_data_count(v, n))
        assert_close(tout, numeric_jvp(flow.for_data_count, (v, n), (t, 0.0)), 1e-6, 1e-7, what=f"n={n}")
        assert d.source == src
    code = [ln for ln in src.splitlines() if not ln.strip().startswith("#")]
    assert len(_loops(src)) == 1 and sum("np.cos(" in ln for ln in code) == 1, src   # not unrolled


def test_carried_tangent_is_carried():
    src = differentiate(flow.for_recurrence, wrt=(0, 1), mode="forward").source
    lines = [ln.strip() for ln in src.splitlines()]
    # the carried y's tangent enters the loop from dx and follows y around the back edge
    assert "dy_1 = dx" in lines and "dy_1 = dy_2" in lines, src


def test_corpus_module_without_cases_fails_loudly(monkeypatch):
    monkeypatch.setattr(corpora, "MODULES", ("test_functions", "checks"))   # checks.py has no CASES
    with pytest.raises(AssertionError, match="checks.py exists but has no CASES"):
        corpora.cases()
    monkeypatch.setattr(corpora, "MODULES", ("test_functions", "test_not_written_yet"))
    with pytest.raises(ModuleNotFoundError):        # a missing corpus is an error, not a skip
        corpora.cases()


def over_list(x):
    s = 0.0
    for w in [x, x * 2.0, np.sin(x)]:
        s = s + np.sum(np.sin(w) * w)
    return s


def over_reversed(x):
    s = 0.0
    for i, r in enumerate(reversed(x)):
        s = s * 0.5 + r * (i + 1.0)
    for r in reversed(x):
        s = s + np.sin(r * s)
    return s


def while_return(x):
    k = 0
    while True:
        x = x * 1.5
        k += 1
        if x > 3.0:
            return x * k
        if k > 50:
            break
    return x


@pytest.mark.parametrize("fn,x", [(over_list, corpus.V), (over_reversed, corpus.V), (while_return, 0.4),
                                  (while_return, -0.4)])
def test_more_loops_forward(fn, x):
    t = np.cos(np.arange(np.size(x)) + 1.0).reshape(np.shape(x))
    value, tout = jvp(fn, (x,), (t,))
    assert_close(value, fn(x))
    assert_close(tout, numeric_jvp(fn, (x,), (t,)), 1e-6, 1e-7, what=differentiate(fn, mode="forward").source)


def _reverse_only_cube(x):
    return x ** 3


def _reverse_only_cube_vjp(g, ans, x):
    return g * 3 * x ** 2


def uses_reverse_only_primitive(x):
    return _reverse_only_cube(x) * 2.0


def test_primitive_without_jvp_rule_is_an_error_not_a_zero_tangent():
    from runtime.rules import define
    from transpiler import TranspileError, grad
    define(_reverse_only_cube, vjp=(_reverse_only_cube_vjp,))
    assert math.isclose(grad(uses_reverse_only_primitive)(2.0), 24.0)
    with pytest.raises(TranspileError, match="no forward-mode rule") as e:
        jvp(uses_reverse_only_primitive, (2.0,), (1.0,))
    assert "test_forward.py" in str(e.value) and "_reverse_only_cube(x) * 2.0" in str(e.value)


# A user's primitives, registered outside the package: one array-valued, one tuple-valued.
def _user_scaled_hypot(x, y):
    return np.sqrt(x * x + y * y) * 2.0


def _user_hypot_vjp_x(g, ans, x, y):
    return g * 4.0 * x / ans


def _user_hypot_vjp_y(g, ans, x, y):
    return g * 4.0 * y / ans


def _user_hypot_jvp_x(t, ans, x, y):
    return _user_times(t, 4.0 * x / ans)


def _user_hypot_jvp_y(t, ans, x, y):
    return _user_times(t, 4.0 * y / ans)


def _user_times(a, b):
    return a * b


def _user_sum_and_product(x, y):
    return x + y, x * y


def _user_pair(a, b):
    return a, b


def _user_sp_vjp_x(g, ans, x, y):
    return g[0] + g[1] * y


def _user_sp_vjp_y(g, ans, x, y):
    return g[0] + g[1] * x


def _user_sp_jvp_x(t, ans, x, y):
    return _user_pair(t, t * y)          # a tuple, through a call


def _user_sp_jvp_y(t, ans, x, y):
    return _user_pair(t, x * t)


def uses_user_hypot(x, y):
    return _user_scaled_hypot(x, y) * x


def uses_user_pair(x, y):
    s, p = _user_sum_and_product(x, y)
    return s * p


def test_a_users_primitive_with_computed_terms_adds_them_in_forward_mode():
    from runtime.rules import define
    define(_user_scaled_hypot, vjp=(_user_hypot_vjp_x, _user_hypot_vjp_y),
           jvp=(_user_hypot_jvp_x, _user_hypot_jvp_y))
    x, y, tx, ty = np.array([0.3, -1.2]), np.array([0.8, 0.5]), np.array([0.7, 0.1]), np.array([-0.4, 0.9])
    _, got = jvp(uses_user_hypot, (x, y), (tx, ty), wrt=(0, 1))
    assert_close(got, numeric_jvp(uses_user_hypot, [x, y], [tx, ty]), what="jvp through a user's primitive")


def test_a_users_tuple_valued_primitive_whose_rules_return_calls_adds_them_item_by_item():
    """`+` of two tuples joins them: the tangent of `s` was the first term's pair and `p` the
    second's, a wrong number (1.12 for 1.405) with no error.  add_terms adds them item by item."""
    from runtime.rules import define
    define(_user_sum_and_product, vjp=(_user_sp_vjp_x, _user_sp_vjp_y), jvp=(_user_sp_jvp_x, _user_sp_jvp_y))
    args, tangents = (0.3, 0.8), (1.0, 0.5)
    _, got = jvp(uses_user_pair, args, tangents, wrt=(0, 1))
    assert_close(got, numeric_jvp(uses_user_pair, list(args), list(tangents)), what="jvp of a tuple-valued primitive")
    hv = hvp(uses_user_pair, args, 1.0, wrt=0)          # forward over reverse: the terms again
    h = 1e-5
    want = (_grad_pair(args[0] + h, args[1])[0] - _grad_pair(args[0] - h, args[1])[0]) / (2 * h)
    assert_close(hv, want, 1e-6, 1e-8, what="hvp of a tuple-valued primitive")


def _grad_pair(a, b):
    """d/da, d/db of (a + b) * a * b, written out (the reference for the hvp)."""
    return (2 * a * b + b * b, a * a + 2 * a * b)
