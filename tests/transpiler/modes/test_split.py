"""The split pair: forward(*args) -> (value, saved), backward(saved, seed) == the gradient."""

import numpy as np
import pytest

from tests.fd import assert_close
from tests.transpiler.frontend.control import test_control_flow as flow
from tests.transpiler import test_functions as corpus
from transpiler import differentiate, vjp
from transpiler.api import _transformer

CASES = corpus.CASES + corpus.SCALAR_CASES + flow.CASES


def _tuple(x):
    return x if isinstance(x, tuple) else (x,)


@pytest.mark.parametrize("fn,args,wrt", CASES, ids=[c[0].__name__ for c in CASES])
def test_split_pair_equals_grad(fn, args, wrt):
    pair = _transformer(fn).get(wrt, mode="split")
    value, saved = pair.forward(*args)
    assert_close(value, fn(*args), 1e-12, 1e-12, what=f"{fn.__name__}: forward value")
    seed = np.random.default_rng(3).normal(size=np.shape(value))
    got = _tuple(pair.backward(saved, seed))
    want = _tuple(differentiate(fn, wrt=wrt).grad(*args) if seed.ndim == 0 and seed == 1.0 else
                  _transformer(fn).call(wrt, False, args, {}, seed=seed))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert_close(g, w, 1e-12, 1e-12, what=f"{fn.__name__}: split backward vs grad\n{pair.source}")


COUNT = []


def counted(x, w):
    COUNT.append(1)
    h = np.tanh(x * w)
    for _ in range(3):
        h = np.sin(h) * w
    return np.sum(h * h)


def test_vjp_runs_the_primal_once():
    x, w = np.linspace(-1, 1, 5), 0.7
    COUNT.clear()
    value, pullback = vjp(counted, x, w, wrt=(0, 1))
    assert len(COUNT) == 1
    g1 = pullback(1.0)
    g2 = pullback(2.0)
    assert len(COUNT) == 1, "the pullback re-ran the primal"
    want = differentiate(counted, wrt=(0, 1)).grad(x, w)
    COUNT.clear()
    for a, b, c in zip(g1, g2, want):
        assert_close(a, c, 1e-12, 1e-12)
        assert_close(b, 2 * c, 1e-12, 1e-12)
    d = differentiate(counted, wrt=0)
    COUNT.clear()
    value2, pb = d.vjp(x, w)
    pb(1.0)
    assert len(COUNT) == 1
    assert value2 == value


def test_saved_holds_only_what_the_backward_reads():
    def f(x, y):
        c = np.exp(y)        # inactive, and only d reads it
        d = c + 1.0
        e = np.sin(x)        # active, but its adjoint reads only x
        return np.sum(e * d)

    pair = _transformer(f).get(0, mode="split")
    _, saved = pair.forward(np.ones(3), np.ones(3))
    line = next(ln for ln in pair.source.splitlines() if "= saved" in ln)
    assert set(line.split("=")[0].replace(",", " ").split()) == {"d", "e", "t1", "x"}, pair.source
    assert len(saved) == 4


def test_zero_trip_loop_saves_no_unbound_name():
    def f(x, n):
        s = x
        for i in range(n):
            s = s * np.cos(x) + i
        return np.sum(s)

    pair = _transformer(f).get(0, mode="split")
    x = np.array([0.3, 0.5])
    for n in (0, 1, 4):
        value, saved = pair.forward(x, n)
        assert_close(pair.backward(saved, 1.0), differentiate(f).grad(x, n), 1e-12, 1e-12)
