"""Statements inside differentiated functions: ``:=``, ``del``, ``assert``, ``try``/``else``/``finally`` and
``raise`` (frontend/desugar.py, control/blocks.py), and the walrus uses that are refused.

Every function in ``CASES`` is also swept by tests/transpiler/corpus.py through forward mode (test_forward.py)
and second order (test_higher.py).  Each takes numbers or arrays only and builds its structures itself.
"""

import numpy as np
import pytest

from tests.transpiler.checks import check
from tests.transpiler.frontend.calls.test_splatting import _three
from transpiler import TranspileError, differentiate, grad

rng = np.random.default_rng(2026)
V = rng.normal(size=4)
W = rng.normal(size=4)
M = rng.normal(size=(2, 3))
T3 = rng.normal(size=(2, 3, 4))
S = 0.7
T = -0.4


def st_walrus(x):
    if (y := x[0] * 2.0) > -100.0:
        return y * x[1]
    return y


def st_walrus_expr(x):
    return np.sum((z := np.sin(x)) * z)


def st_del(x):
    a = x * 2.0
    b = a * x
    del a
    return np.sum(b)


def st_assert(x):
    y = x * x
    assert y.shape == (4,), "shape changed"
    return np.sum(y)


def st_try_else_finally(x):
    try:
        y = x * 2.0
    except ValueError:
        y = x * 5.0
    else:
        y = y * x
    finally:
        z = 1.0
    return np.sum(y) * z


def st_raise_not_taken(x):
    if x.shape[0] > 10:
        raise ValueError("too long")
    return np.sum(x * 3.0 * x)


def st_raise_in_else_not_taken(x):
    y = x * 2.0
    if y.shape[0] == 4:
        y = y * x
    else:
        raise ValueError("bad shape")
    return np.sum(y)


def mix_walrus_in_comprehension_free(x):
    if (n := len(x)) > 2:
        y = x * n
    else:
        y = x
    return np.sum(y * y)


def mix_walrus_chain(x):
    a = (b := x[0] * 2.0) + (c := x[1] * b)
    return a * c


def walrus_read_before(x):
    y = x[0]
    z = _three(y, (y := x[1] * 2.0), y)          # the first y is the old value: not hoisted
    return z


def walrus_in_and(x):
    if x[0] > -100.0 and (y := x[1] * 3.0) > -100.0:
        return y * x[2]
    return x[3]


@pytest.mark.parametrize("fn", [walrus_read_before, walrus_in_and], ids=lambda f: f.__name__)
def test_walrus_that_cannot_move_is_refused_at_its_line(fn):
    with pytest.raises(TranspileError, match=":=") as info:
        grad(fn)(V)
    assert info.value.filename == __file__ and "y :=" in info.value.text


def test_raise_fires_in_the_gradient_call_as_in_the_function():
    big = np.zeros(11)
    for call in (st_raise_not_taken, grad(st_raise_not_taken),
                 lambda a: differentiate(st_raise_not_taken, mode="forward").jvp((a,), (a,))):
        with pytest.raises(ValueError, match="too long"):
            call(big)


CASES = [
    (st_walrus, (V,), 0),
    (st_walrus_expr, (V,), 0),
    (st_del, (V,), 0),
    (st_assert, (V,), 0),
    (st_try_else_finally, (V,), 0),
    (st_raise_not_taken, (V,), 0),
    (st_raise_in_else_not_taken, (V,), 0),
    (mix_walrus_in_comprehension_free, (V,), 0),
    (mix_walrus_chain, (V,), 0),
]


@pytest.mark.parametrize("fn,args,wrt", CASES, ids=[c[0].__name__ for c in CASES])
def test_reverse(fn, args, wrt):
    check(fn, *args, wrt=wrt, tape=False)   # finite differences; the tape cannot run list sorts etc.
