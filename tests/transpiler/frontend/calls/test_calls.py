"""Calls to user functions: reverse == finite differences == tape, forward == finite differences.

Plus: each callee transformed once, recursion not unrolled, errors at the call site, the
split pair with callees, and standalone modules that include the callees' code.
"""

import math
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from tests.fd import assert_close, numeric_grad, numeric_jvp
from tests.transpiler.frontend.calls import calls_corpus as corpus
from tests.transpiler.checks import check
from transpiler import TranspileError, differentiate, vjp
from transpiler import api, variants

CASES = corpus.CASES


def _tuple(x):
    return x if isinstance(x, tuple) else (x,)


def check_forward(fn, args, wrt, seed=1):
    """jvp along a random direction == finite differences; == <grad, direction>."""
    idx = list(_tuple(wrt))
    rng = np.random.default_rng(seed)
    tangents = tuple(rng.normal(size=np.shape(args[i])) if np.ndim(args[i]) else float(rng.normal())
                     for i in idx)
    d = differentiate(fn, wrt=wrt, mode="forward")
    value, tout = d.jvp(args, tangents)
    assert_close(value, fn(*args), 1e-12, 1e-12, what=f"{fn.__name__}: value")
    full = [np.zeros(np.shape(a)) for a in args]
    for i, t in zip(idx, tangents):
        full[i] = t
    assert_close(tout, numeric_jvp(fn, args, full), 1e-5, 1e-6,
                 what=f"{fn.__name__}: jvp vs finite differences\n{d.source}")
    grads = _tuple(differentiate(fn, wrt=wrt).grad(*args))
    rev = sum(float(np.sum(np.asarray(g) * t)) for g, t in zip(grads, tangents))
    assert math.isclose(float(np.sum(tout)), rev, rel_tol=1e-9, abs_tol=1e-9), fn.__name__
    return d


IDS = [f"{c[0].__name__}-{c[2]}" for c in CASES]


@pytest.mark.parametrize("fn,args,wrt", CASES, ids=IDS)
def test_reverse(fn, args, wrt):
    check(fn, *args, wrt=wrt)


@pytest.mark.parametrize("fn,args,wrt", CASES, ids=IDS)
def test_forward(fn, args, wrt):
    check_forward(fn, args, wrt)


@pytest.mark.parametrize("fn,args,wrt", CASES, ids=IDS)
def test_split_pair_equals_grad(fn, args, wrt):
    pair = api._transformer(fn).get(wrt, mode="split")
    value, saved = pair.forward(*args)
    assert_close(value, fn(*args), 1e-12, 1e-12)
    want = _tuple(differentiate(fn, wrt=wrt).grad(*args))
    for got in (pair.backward(saved, 1.0), pair.backward(saved)):     # given and default seed
        for a, b in zip(_tuple(got), want):
            assert_close(a, b, 1e-12, 1e-12, what=f"{fn.__name__}: split backward vs grad")


# --- each callee transformed once ------------------------------------------------------------
def once_callee(t):
    return np.sin(t) * t


def once_caller(x):
    s = once_callee(x)
    for i in range(3):
        s = s + once_callee(s * 0.5)
    return np.sum(s + once_callee(x * 2.0))


def test_each_callee_transformed_once(monkeypatch):
    made = []
    real = variants.transform_split

    def counting(fn, wrt=0, note=None):
        made.append(fn.__name__)
        return real(fn, wrt, note)

    monkeypatch.setattr(variants, "transform_split", counting)
    d = differentiate(once_caller)
    for _ in range(3):
        d.grad(corpus.V)
    vjp(once_caller, corpus.V)[1](1.0)
    assert made.count("once_callee") == 1, made
    check(once_caller, corpus.V)


# --- recursion through the call stack, not unrolled -----------------------------------------
def test_recursion_source_independent_of_depth():
    d = differentiate(corpus.power)
    before = d.source
    x = np.array([0.9, 1.1])
    for n in (2, 10, 40):
        assert_close(d.grad(x, n), n * x ** (n - 1), 1e-10, 1e-12)
    assert d.source == before
    assert before.count("def fwd_power(") == 1 and before.count("def bwd_power(") == 1
    assert len(before.splitlines()) < 60


def test_recursion_saved_tuples_nest():
    pair = api._transformer(corpus.power).get(0, mode="split")
    _, saved = pair.forward(0.5, 3)
    depth = 0
    while saved is not None and any(isinstance(s, tuple) for s in saved):
        saved = next(s for s in saved if isinstance(s, tuple))
        depth += 1
    assert depth == 3          # one nested saved tuple per recursive call


# --- errors point at the call site ------------------------------------------------------------
def gen_callee(x):
    yield x


def calls_generator(x):
    y = x * 2.0
    return gen_callee(y)


async def async_callee(x):
    return x


def calls_async(x):
    return async_callee(x) * 2.0


namespace = {}
exec("def no_source(t):\n    return t * 2.0\n", namespace)
NO_SOURCE = namespace["no_source"]


def calls_no_source(x):
    return NO_SOURCE(x) + 1.0


def calls_nested_recursion(x):
    def h(t):
        return h(t * 0.5)

    return h(x)


def calls_with_bad_arity(x):
    return corpus.mix(x)


@pytest.mark.parametrize("fn,words", [
    (calls_generator, "the generator made by gen_callee(...) is used here in a way adjoin cannot follow"),
    (calls_async, "async"),
    (calls_no_source, "cannot read the source"),
    (calls_nested_recursion, "calls itself"),
    (calls_with_bad_arity, "does not match"),
])
def test_errors_at_the_call_site(fn, words):
    with pytest.raises(TranspileError) as info:
        differentiate(fn)
    err = info.value
    assert words in str(err)
    assert err.filename == __file__
    src = open(__file__).read().splitlines()[err.lineno - 1]
    assert fn.__name__ != "calls_nested_recursion" or "h(" in src
    if fn is not calls_nested_recursion:
        assert "(" in src and "return" in src, src   # the caller's line with the call
    assert err.hint


def test_no_source_hint_names_rules():
    with pytest.raises(TranspileError) as info:
        differentiate(calls_no_source)
    assert "runtime.rules.define" in str(info.value)


# --- the pullback does not re-run the primal (callees included) -------------------------------
RUNS = []


def counted_callee(t):
    RUNS.append(1)
    return np.cos(t) * t


def counted_caller(x):
    return np.sum(counted_callee(x) * counted_callee(x * 3.0))


def test_vjp_does_not_rerun_callees():
    RUNS.clear()
    value, pullback = vjp(counted_caller, corpus.V)
    assert len(RUNS) == 2
    g = pullback(1.0)
    pullback(1.0)
    assert len(RUNS) == 2
    RUNS.clear()
    assert_close(g, differentiate(counted_caller).grad(corpus.V), 1e-12, 1e-12)


# --- readable output --------------------------------------------------------------------------
def test_source_shows_the_callees():
    src = differentiate(corpus.c_chain).source
    assert "fwd_chain_middle(x)" in src
    assert "def fwd_chain_middle(" in src and "def bwd_chain_inner(" in src
    assert "transpiler" not in src.split("def ")[0]      # no import of adjoin for the callees
    fsrc = differentiate(corpus.c_chain, mode="forward").source
    assert "jvp_chain_middle((dx,), x)" in fsrc and "def jvp_chain_inner(" in fsrc


# --- standalone modules include the callees ----------------------------------------------------
def test_standalone_module_with_callees(tmp_path):
    model = tmp_path / "model_calls.py"
    model.write_text(textwrap.dedent("""
        import numpy as np

        def act(t, k=2.0):
            return np.tanh(t * k)

        def power(x, n):
            if n <= 0:
                return 1.0 + 0.0 * x
            return x * power(x, n - 1)

        def loss(x, w):
            h = act(x @ w) + power(x @ w, 3)
            return np.sum(h * h)
    """))
    out = tmp_path / "grads.py"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    subprocess.run([sys.executable, "-m", "transpiler", f"{model}:loss", "--wrt", "0,1", "-o", str(out)],
                   check=True, env=env, cwd=str(tmp_path))
    text = out.read_text()
    assert "def fwd_act(" in text and "def bwd_power(" in text
    probe = textwrap.dedent(f"""
        import sys, numpy as np
        sys.path.insert(0, {str(tmp_path)!r})
        import grads
        assert not any(m.split('.')[0] in ('transpiler', 'runtime') for m in sys.modules), sorted(sys.modules)
        x = np.array([[0.3, -0.2], [0.1, 0.4]]); w = np.array([[0.5, 0.1], [-0.3, 0.2]])
        gx, gw = grads.dlossdx_w(x, w)
        print(repr(gx.tolist()))
        print(repr(gw.tolist()))
    """)
    res = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"}, cwd=str(tmp_path))
    assert res.returncode == 0, res.stderr + text
    gx, gw = [np.array(eval(part)) for part in res.stdout.strip().splitlines()]
    sys.path.insert(0, str(tmp_path))
    try:
        import model_calls
        want = differentiate(model_calls.loss, wrt=(0, 1)).grad(np.array([[0.3, -0.2], [0.1, 0.4]]),
                                                               np.array([[0.5, 0.1], [-0.3, 0.2]]))
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("model_calls", None)
    assert_close(gx, want[0], 1e-12, 1e-12)
    assert_close(gw, want[1], 1e-12, 1e-12)


# --- with the tape, and higher order ---------------------------------------------------------
def test_recorded_op_with_callees_gives_second_derivatives():
    import runtime as tf
    d = differentiate(corpus.c_recursion)
    xv = np.array([0.5, 1.2])
    x = tf.constant(xv)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = d(x)
        g = inner.gradient(y, x)
    h = outer.gradient(g, x)
    assert_close(g.numpy(), 4 * xv ** 3 + 1, 1e-10, 1e-12)
    assert_close(h.numpy(), 12 * xv ** 2, 1e-10, 1e-12)


def test_grad_of_grad_through_calls():
    from transpiler import grad        # more in test_higher_calls.py
    assert_close(grad(grad(corpus.c_simple))(corpus.V), 2.0 + 0.0 * corpus.V, 1e-12, 1e-12)


def passes_norm(x):
    return corpus.apply(np.corrcoef, x)


def test_runtime_callee_without_rule_or_source():
    d = differentiate(passes_norm)
    with pytest.raises(TypeError, match="runtime.rules.define"):
        d.grad(corpus.V)


# --- forward mode over the control-flow corpus (loops get tangents in their bodies) -----------
from tests.transpiler.frontend.control import test_control_flow as flow  # noqa: E402


@pytest.mark.parametrize("fn,args,wrt", flow.CASES, ids=[c[0].__name__ for c in flow.CASES])
def test_forward_control_flow(fn, args, wrt):
    check_forward(fn, args, wrt)


# --- lists passed in: `xs + ys` of two list arguments, list literals passed to a callee --------

def join_lists(xs, ys):
    zs = xs + ys
    return np.sum(zs[0] * zs[-1] + np.sin(zs[1]))


def _flat(lists):
    return np.concatenate([np.ravel(a) for lst in lists for a in lst])


def _unflat(flat, like):
    out, at = [], 0
    for lst in like:
        out.append([flat[at + i * 2: at + i * 2 + 2] for i in range(len(lst))])
        at += 2 * len(lst)
    return out


def test_join_of_two_list_arguments_reverse_and_forward_match_finite_differences():
    rng = np.random.default_rng(5)
    xs, ys = [rng.normal(size=2), rng.normal(size=2)], [rng.normal(size=2)]
    like = [xs, ys]
    scalar = lambda flat: join_lists(*_unflat(flat, like))   # noqa: E731
    fd = np.array([numeric_jvp(scalar, (_flat(like),), (e,)) for e in np.eye(6)])
    gx, gy = differentiate(join_lists, wrt=(0, 1)).grad(xs, ys)
    assert_close(_flat([gx, gy]), fd, 1e-6, 1e-7, what="grad of xs + ys")
    assert isinstance(gx, list) and len(gx) == 2 and isinstance(gy, list) and len(gy) == 1
    tx = [rng.normal(size=2), rng.normal(size=2)]
    ty = [rng.normal(size=2)]
    _, tout = differentiate(join_lists, wrt=(0, 1), mode="forward").jvp((xs, ys), (tx, ty))
    assert_close(tout, numeric_jvp(scalar, (_flat(like),), (_flat([tx, ty]),)), 1e-6, 1e-7, what="jvp")


def test_join_of_two_array_arguments_stays_an_addition(capsys):
    """A variant specialised on arrays adds; only one that cannot know (``.source`` before a
    call) writes ``concat``, which adds arrays too."""
    x, y = np.array([0.5, -1.0]), np.array([2.0, 0.25])
    d = differentiate(join_lists, wrt=(0, 1))
    gx, gy = d.grad(x, y)
    assert_close(gx, numeric_grad(lambda a: join_lists(a, y), x), 1e-6, 1e-7)
    assert_close(gy, numeric_grad(lambda b: join_lists(x, b), y), 1e-6, 1e-7)
    d.show(x, y)
    shown = capsys.readouterr().out
    assert "zs = xs + ys" in shown and "concat" not in shown
    assert "concat(xs, ys)" in d.source


def _pair_product(xs):
    return xs[0] * xs[1]


def list_literal_to_callee(x):
    xs = [x[0], np.sin(x[1])]
    return _pair_product(xs) + _pair_product([x[2], 3.0])


def test_list_literal_passed_to_a_callee():
    x = np.array([0.3, -0.7, 1.1])
    check(list_literal_to_callee, x, tape=False)
    check_forward(list_literal_to_callee, (x,), 0)


def _tail(l):
    return l[1:]


def _pairwise(xs):
    return [a * b for a, b in zip(xs, xs[1:])]


def slices_a_list_argument(x):
    t = _tail([x[0], x[1], np.sin(x[2])])
    p = _pairwise([x[0], x[1], x[2]])
    return t[0] * t[1] + p[1] * p[0]


def test_callee_slicing_a_list_argument():
    """The callee cannot know its argument is a list: the cotangent of ``l[1:]`` goes back slot by
    slot when it runs (it raised NotImplementedError).  hvp works; grad(grad) says what it lacks."""
    x = np.array([0.3, -0.7, 1.1])
    check(slices_a_list_argument, x, tape=False)
    check_forward(slices_a_list_argument, (x,), 0)
    from transpiler import grad
    from transpiler.higher import hvp
    v = np.array([1.0, -0.5, 0.25])
    g = grad(slices_a_list_argument)
    assert_close(hvp(slices_a_list_argument, x, v), (g(x + 1e-5 * v) - g(x - 1e-5 * v)) / 2e-5, 1e-5, 1e-7)
    with pytest.raises(NotImplementedError, match="slice of a list"):
        grad(g)(x)
