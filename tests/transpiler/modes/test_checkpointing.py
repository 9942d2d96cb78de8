"""Checkpointed loops (``memory_budget``): the same gradient as without a budget, within it.

The reference for "the same gradient" is the unbudgeted generated gradient, itself checked
against finite differences by the corpus suites; here the loops below are also checked
against central differences directly.  Peak memory is measured with tracemalloc.
"""

import ast
import inspect
import pickle
import random
import textwrap
import tracemalloc

import numpy as np
import pytest

import runtime as tf
from tests.fd import numeric_grad
from tests.transpiler import corpus
from transpiler import TranspileError, differentiate, grad, hessian, hvp, value_and_grad, vjp
from transpiler.modes import checkpoint_schedule


def same(a, b):
    """Equal numbers, through tuples, lists and dicts of gradients."""
    if isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys()
        for k in a:
            same(a[k], b[k])
    elif isinstance(a, (tuple, list)):
        assert isinstance(b, (tuple, list)) and len(a) == len(b)
        for x, y in zip(a, b):
            same(x, y)
    else:
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))


def has_loop(fn):
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError):
        return False
    return any(isinstance(n, (ast.For, ast.While, ast.comprehension)) for n in ast.walk(tree))


LOOPS = [c for c in corpus.cases() if has_loop(c[1])]


@pytest.fixture
def dense(monkeypatch):
    """A snapshot may be due every trip and no fixed reserve: small loops reach every schedule."""
    monkeypatch.setattr(checkpoint_schedule, "SPACING", 1)
    monkeypatch.setattr(checkpoint_schedule, "WORKING", 0)


@pytest.mark.parametrize("name, fn, args, wrt", LOOPS, ids=[c[0] for c in LOOPS])
@pytest.mark.parametrize("spacing", [1, 10 ** 6], ids=["dense", "sparse"])
def test_corpus_loops_same_gradient_under_budgets(name, fn, args, wrt, spacing, monkeypatch):
    """Dense: a snapshot every trip (each reverse restores one); sparse: only the first, so the
    small budgets reverse the loop with the binomial schedule (advances recompute trips)."""
    monkeypatch.setattr(checkpoint_schedule, "SPACING", spacing)
    monkeypatch.setattr(checkpoint_schedule, "WORKING", 0)
    reference = grad(fn, wrt)(*args)
    ran = 0
    for budget in (10 ** 7, 8000, 4000, 3000, 2000, 1500, 1000, 700):
        try:
            got = grad(fn, wrt, memory_budget=budget)(*args)
        except ValueError as e:
            assert "too small" in str(e) and "give memory_budget=" in str(e)
            continue
        same(got, reference)
        ran += 1
    assert ran >= 1


def test_corpus_has_loops_to_checkpoint():
    names = {c[0].split(".")[0] for c in LOOPS}
    assert len(LOOPS) >= 40 and {"control_flow", "calls"} <= names
    checkpointed = sum("Checkpoints(" in grad(fn, wrt, memory_budget=10 ** 6).source for _, fn, _, wrt in LOOPS)
    assert checkpointed >= 30


# --- the loops of the issue, long enough to need recomputation -----------------------------------
def update(x, n):
    for i in range(n):
        x = x + 0.001 * np.sin(x) * np.cos(x[::-1])
    return np.sum(x)


def until(x):
    t = 0.0
    while t < 20.0:
        x = x + 0.001 * np.sin(x) * np.sum(x)
        t = t + 0.01
    return np.sum(x * x)


def nested(x, n):
    for i in range(n):
        for j in range(3):
            x = np.sin(x) * 0.5 + x * 0.9
        x = x + 0.01 * i
    return np.sum(x * x)


def while_in_for(x, n, m):
    s = 0.0
    for i in range(n):
        k = 0
        while k < m:
            x = np.cos(x) * 0.3 + x
            s = s + np.sum(x) * 0.001
            k = k + 1
    return s


def over_sequence(x, ws):
    for w in ws:
        x = np.tanh(x * w) + x
    return np.sum(x)


def step(x, k):
    for _ in range(k):
        x = x + 0.01 * np.cos(x)
    return x


def callee_loops(x, n):
    for i in range(n):
        x = step(x, 3) * 0.99
    return np.sum(step(x, 50))


def long_callee_in_loop(x, n):
    for i in range(n):
        x = step(x, 200) * 0.999        # one trip of this loop runs 200 of the callee's
    return np.sum(x)


def two_loops(x, n):
    y = x
    for i in range(n):
        y = y + 0.01 * np.sin(y)
    z = y * 2.0
    for i in range(n):
        z = z * 0.999 + 0.001 * np.cos(y)
    return np.sum(z)


X = np.linspace(-1.0, 1.0, 64)
LONG = [(update, (X, 1500)), (until, (X * 0.1,)), (nested, (X, 800)), (over_sequence, (X, list(np.linspace(0.5, 1.0, 2000)))),
        (callee_loops, (X, 1500)), (two_loops, (X, 1000)), (while_in_for, (X, 20, 200)),
        (long_callee_in_loop, (X, 30))]
IDS = [f.__name__ for f, _ in LONG]


def peak(fn, *args):
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        out = fn(*args)
        return tracemalloc.get_traced_memory()[1] - before, out
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("fn, args", LONG, ids=IDS)
def test_long_loops_within_budget_and_same_gradient(fn, args):
    plain = grad(fn)
    plain(*args)                 # the first call generates the variant for these arguments
    full, reference = peak(plain, *args)
    for frac in (20, 100):
        budget = full // frac
        g = grad(fn, memory_budget=budget)
        g(*args)
        checkpoint_schedule._LEARNED.clear()     # measure as a first run does: sizes not known yet
        for run in ("first", "second"):          # (the second knows the sizes the first measured)
            used, got = peak(g, *args)
            same(got, reference)
            assert used <= budget, (frac, run, used, budget)


def test_a_callee_in_a_checkpointed_loop_is_checkpointed_too():
    """Unbudgeted, one trip of the outer loop saves the callee's 200 trips: more than the
    budget.  The callee's own loop keeps only its start in a recorded trip and is reversed
    from it by the callee's backward."""
    plain = grad(long_callee_in_loop)
    plain(X, 30)
    full, reference = peak(plain, X, 30)
    budget = full // 100
    assert full // 30 > budget
    g = grad(long_callee_in_loop, memory_budget=budget)
    used, got = peak(g, X, 30)
    same(got, reference)
    assert used <= budget
    assert g.source.count("Checkpoints(") >= 2         # the caller's loop and the callee's


def test_sizes_learned_by_one_call_are_not_trusted_for_other_shapes():
    g = grad(update, memory_budget=200_000)
    small, big = X[:4], np.linspace(-1.0, 1.0, 256)
    g(big, 2)                                    # generates the variant for these arguments
    g(small, 1500)                               # learns a small trip's size
    used, got = peak(g, big, 1500)
    same(got, grad(update)(big, 1500))
    assert used <= 200_000


@pytest.mark.parametrize("fn, args", LONG[:3], ids=IDS[:3])
def test_long_loops_against_finite_differences(fn, args, dense):
    short = tuple(a if not isinstance(a, int) else a // 30 for a in args)
    x = short[0][:6].copy()
    rest = short[1:]
    g = grad(fn, memory_budget=12000)(x, *rest)
    np.testing.assert_allclose(g, numeric_grad(lambda v: fn(v, *rest), x), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("budget", [10000, 16000])
def test_tight_budget_recomputes_with_revolve(budget, dense, monkeypatch):
    x = X[:8]
    reference = grad(update)(x, 400)
    plans, advanced = [], []
    original = checkpoint_schedule.Checkpoints.reversal

    def spy(self, repeat=False):
        for action in original(self, repeat):
            if not action[2]:
                advanced.append(action[1] - action[0])
            yield action
        plans.append(self)

    monkeypatch.setattr(checkpoint_schedule.Checkpoints, "reversal", spy)
    got = grad(update, memory_budget=budget)(x, 400)
    same(got, reference)
    assert len(plans) == 1 and plans[0].peak + plans[0].working() <= budget
    assert sum(advanced) > 0           # trips were recomputed, by the binomial schedule


# --- the API ---------------------------------------------------------------------------------------
def test_every_entry_point_takes_the_budget():
    x, n = X[:8], 300
    reference = grad(update)(x, n)
    same(grad(update, memory_budget="40KB")(x, n), reference)
    value, g = value_and_grad(update, memory_budget=40000)(x, n)
    same(g, reference) and np.testing.assert_equal(value, update(x, n))
    v, pullback = vjp(update, x, n, memory_budget="40KB")
    same(pullback(1.0), reference)
    same(pullback(2.0), 2.0 * reference)       # a pullback runs again on the same snapshots
    d = differentiate(update, memory_budget=40000)
    same(d.grad(x, n), reference)
    same(d.value_and_grad(x, n)[1], reference)
    same(d.vjp(x, n)[1](1.0), reference)
    assert "plan.reversal()" in d.source


def test_gradient_function_pickles_with_its_budget():
    g = pickle.loads(pickle.dumps(grad(update, memory_budget=40000)))
    same(g(X[:8], 100), grad(update)(X[:8], 100))
    assert "Checkpoints(budget=40000" in g.source


def test_interop_op_on_a_tape():
    d = differentiate(update, memory_budget=40000)
    x = tf.Variable(X[:8])
    with tf.GradientTape() as tape:
        y = d(x, 300)
    same(np.asarray(tape.gradient(y, x)), grad(update)(X[:8], 300))


def test_second_order_through_nested_tapes():
    """An outer tape records the checkpointed gradient run on tensors: exact second order."""
    d = differentiate(update, memory_budget=40000)
    x0 = np.linspace(0.0, 1.0, 4)
    x = tf.Variable(x0)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = d(x, 30)
        g = inner.gradient(y, x)
        s = tf.reduce_sum(g * g)
    plain = grad(update)
    expected = numeric_grad(lambda v: np.sum(plain(v, 30) ** 2), x0)
    np.testing.assert_allclose(np.asarray(outer.gradient(s, x)), expected, rtol=1e-6, atol=1e-9)


def test_show_prints_snapshot_advance_reverse(capsys):
    differentiate(update, memory_budget="8MB").show()
    out = capsys.readouterr().out
    for piece in ("plan = Checkpoints(budget=8000000, where='for i in range(n):', trips=len(range(n)))",
                  "if plan.take((x_1,)):", "# measure: record this trip once", "plan.sized(tape)", "# grad of: for i in range(n):", "plan.reversal()", "if record:",
                  "for i in range(n)[start:stop]:", "for i in reversed(range(n)[start:stop]):",
                  "plan.keep(stop, (x_1,))", "# grad of: x = x + 0.001 * np.sin(x) * np.cos(x[::-1])"):
        assert piece in out, piece


@pytest.mark.parametrize("bad, error", [("8XB", ValueError), ("", ValueError), (-1, ValueError), (0, ValueError),
                                        (1.5, TypeError), ([1], TypeError)])
def test_malformed_budget(bad, error):
    with pytest.raises(error, match="memory_budget"):
        grad(update, memory_budget=bad)
    with pytest.raises(error, match="memory_budget"):
        differentiate(update, memory_budget=bad)


def test_budget_too_small_says_how_much_is_needed():
    with pytest.raises(ValueError, match=r"one snapshot of the loop's state takes \d+ bytes, and running a trip about \d+ more; "
                                         r"give memory_budget=\d+ at least"):
        grad(update, memory_budget=100)(X, 10)
    # the amount asked for is enough (a first run may learn the size of a trip's tape and ask again)
    budget, asked = 1200, []
    for _ in range(3):
        try:
            got = grad(update, memory_budget=budget)(X, 100)
            break
        except ValueError as e:
            assert "too small for the checkpointed loop `for i in range(n):`" in str(e)
            budget = int(str(e).split("give memory_budget=")[1].split()[0])
            asked.append(budget)
    else:
        pytest.fail(f"the budgets asked for were not enough: {asked}")
    assert asked and asked[-1] > 1200
    same(got, grad(update)(X, 100))


def test_higher_order_is_a_clear_error():
    with pytest.raises(TranspileError, match="with memory_budget cannot be differentiated again"):
        grad(grad(update, memory_budget=20000))(X[:4], 10)
    with pytest.raises(ValueError, match="memory_budget cannot be kept"):
        hvp(grad(update, memory_budget=20000), (X[:4], 10), np.ones(4))


def test_hvp_and_hessian_refuse_a_budgeted_differentiable():
    """Second-order code does not checkpoint: a budget it would silently exceed is refused."""
    f = differentiate(update, memory_budget=20000)
    with pytest.raises(ValueError, match="memory_budget cannot be kept"):
        hvp(f, (X[:4], 10), np.ones(4))
    with pytest.raises(ValueError, match="memory_budget cannot be kept"):
        hessian(f)(X[:4], 10)


def test_forward_mode_refuses_a_budget():
    with pytest.raises(ValueError, match="forward mode keeps nothing"):
        differentiate(update, mode="forward", memory_budget=1000)


# --- the expert override -----------------------------------------------------------------------------
def fixed(x, n):
    for i in range(n):  # adjoin: snapshots=4
        x = x * 0.999 + 0.01 * np.sin(x)
    return np.sum(x)


def fixed_while(x):
    s = 0.0
    while s < 50.0:  # adjoin: snapshots=3
        s = s + np.sum(np.abs(x))
        x = x * 1.01
    return s


@pytest.mark.parametrize("fn, args", [(fixed, (X[:8], 200)), (fixed_while, (X[:8],))])
def test_fixed_snapshots_without_budget(fn, args):
    g = grad(fn)
    assert "snapshots=" in g.source and "Checkpoints(budget=None" in g.source
    np.testing.assert_allclose(g(*args), numeric_grad(lambda v: fn(v, *args[1:]), args[0]), rtol=1e-6)


def test_fixed_snapshots_are_kept():
    seen = []
    original = checkpoint_schedule.Checkpoints.reversal

    def spy(self, repeat=False):
        seen.append(sorted(self.snaps))
        yield from original(self, repeat)

    checkpoint_schedule.Checkpoints.reversal = spy
    try:
        grad(fixed)(X[:8], 200)
    finally:
        checkpoint_schedule.Checkpoints.reversal = original
    assert seen == [[0, 50, 100, 150]]


# --- loops whose recomputation would differ ------------------------------------------------------------
RNG = np.random.default_rng(0)


def draws_numpy(x, n):
    for i in range(n):
        x = x + 0.1 * np.random.normal(size=x.shape) * x
    return np.sum(x)


def draws_generator(x, n):
    for i in range(n):
        x = x * (1.0 + 0.1 * RNG.normal())
    return np.sum(x)


def noisy(x):
    return x * random.random()


def draws_in_callee(x, n):
    while n > 0:
        x = noisy(x) + x
        n = n - 1
    return np.sum(x)


@pytest.mark.parametrize("fn", [draws_numpy, draws_generator, draws_in_callee])
def test_loops_drawing_random_numbers_are_refused(fn):
    with pytest.raises(TranspileError, match="draws random numbers, so it cannot be checkpointed"):
        grad(fn, memory_budget=10 ** 6)(X[:4], 5)
    grad(fn)(X[:4], 5)          # without a budget the draws are saved as usual
