"""Tangent compatibility: ``grad(f, wrt, optimized, preserve_result, check_dims, verbose)``
follows ``tangent.grad``'s conventions for the programs Tangent handled.

Tangent's gradient functions return one gradient for one ``wrt`` index (a tuple for
several), take the seed as an extra positional argument (default 1.0), append the value
when ``preserve_result=True`` (``dx, value`` / ``dx, dy, value``), insist on a scalar output
with ``check_dims=True`` unless the seed has the output's shape, and print the generated
code with ``verbose=1``.  The one intended difference: a tuple ``wrt`` always returns a
tuple, so ``wrt=(0,)`` gives ``(dx,)`` where Tangent gave ``dx``.  The programs below are
in the style of Tangent's README and test functions; every gradient is checked against
central finite differences.
"""

import pickle

import numpy as np
import pytest

from tests.fd import assert_close
from tests.transpiler.checks import fd_grads
from transpiler import grad


# --- programs in Tangent's style ----------------------------------------------------------
def saxpy(a, b, c):
    return a * b + c


def overwrite_if(a):
    if a > 0:
        a = a * 3.0
    else:
        a = a * 2.0
    return a


def nested_if(a):
    if a > 0:
        if a < 10:
            a = a * a
    else:
        a = 3.0 * a
    return a


def if_elif(a, b):
    if a * b > 1.0:
        c = a * a
    elif a > b:
        c = a / b
    else:
        c = -a
    return c


def serial_for(a, n):
    for i in range(n):
        a = a * 0.9 + np.sin(a)
    a = 2.0 * a
    for i in range(n + 1):
        a = a * 1.5
    return a


def cond_loop(a):
    for i in range(3):
        if a < 20:
            a = a * a
    return a


def nested_for(a):
    for i in range(2):
        for j in range(3):
            a = np.tanh(a * 1.1 + j)
    return a


def halve_while_large(a):
    while np.abs(a) > 0.1:
        a = a * 0.5
    return a


def augmented(a):
    x = a * a
    x *= x
    x += a
    return x


def logistic_regression(inputs, label, W, b):
    h1 = np.dot(inputs, W) + b
    prediction = 0.5 * (np.tanh(h1) + 1)
    probabilities = prediction * label + (1 - prediction) * (1 - label)
    return -np.sum(np.log(probabilities))


def bilinear(x, h, U, W, b):
    y = np.dot(x, W)
    y = y + np.dot(h, U)
    y = np.tanh(y + b)
    return np.sum(y)


def elementwise(x):
    return np.sin(x) * x


rng = np.random.default_rng(7)
LR = (rng.normal(size=(5, 3)), (rng.uniform(size=(5, 2)) > 0.5).astype(float),
      rng.normal(size=(3, 2)) * 0.5, rng.normal(size=2) * 0.1)
BL = (rng.normal(size=(2, 3)), rng.normal(size=(2, 4)), rng.normal(size=(4, 5)) * 0.5,
      rng.normal(size=(3, 5)) * 0.5, rng.normal(size=5) * 0.1)

CASES = [
    (saxpy, (1.5, -0.7, 0.3)),
    (overwrite_if, (1.3,)), (overwrite_if, (-0.8,)),
    (nested_if, (2.0,)), (nested_if, (12.0,)), (nested_if, (-1.5,)),
    (if_elif, (1.5, 1.2)), (if_elif, (0.5, 0.2)), (if_elif, (0.2, 0.5)),
    (serial_for, (0.4, 3)), (serial_for, (0.4, 0)),
    (cond_loop, (1.2,)), (cond_loop, (30.0,)),
    (nested_for, (0.3,)),
    (halve_while_large, (3.7,)),
    (augmented, (0.7,)),
    (logistic_regression, LR),
    (bilinear, BL),
]


def _id(case):
    return case[0].__name__


def _float_wrt(args):
    return tuple(i for i, a in enumerate(args) if not isinstance(a, int))


def _fd(fn, args, wrt, seed=None):
    """Finite differences in the float arguments only (trip counts stay ints)."""
    floats = _float_wrt(args)

    def on_floats(*xs):
        full = list(args)
        for k, x in zip(floats, xs):
            full[k] = x
        return fn(*full)

    return fd_grads(on_floats, [args[k] for k in floats], [floats.index(i) for i in wrt], seed)


@pytest.mark.parametrize("fn,args", CASES, ids=[_id(c) for c in CASES])
def test_default_wrt_returns_one_gradient(fn, args):
    """grad(f) differentiates the first argument and returns it alone, as Tangent did."""
    g = grad(fn)(*args)
    assert not isinstance(g, tuple)
    assert np.shape(g) == np.shape(args[0])
    assert_close(g, _fd(fn, args, [0])[0], 1e-5, 1e-6, what=fn.__name__)


@pytest.mark.parametrize("fn,args", CASES, ids=[_id(c) for c in CASES])
def test_several_wrt_and_preserve_result(fn, args):
    """wrt=(0, 1, ...) gives a tuple; preserve_result appends the value: dx, dy, ..., value."""
    wrt = _float_wrt(args)
    expected = _fd(fn, args, wrt)
    got = grad(fn, wrt=wrt)(*args)
    assert isinstance(got, tuple) and len(got) == len(wrt)
    for gi, ei in zip(got, expected):
        assert_close(gi, ei, 1e-5, 1e-6, what=fn.__name__)
    *grads, value = grad(fn, wrt=wrt, preserve_result=True)(*args)
    assert_close(value, fn(*args), 1e-12, 0, what="preserved value")
    for gi, ei in zip(grads, expected):
        assert_close(gi, ei, 1e-5, 1e-6, what=fn.__name__)


def test_single_wrt_preserve_result_is_gradient_then_value():
    dx, value = grad(overwrite_if, preserve_result=True)(1.3)
    assert dx == pytest.approx(3.0) and value == pytest.approx(3.9)


def test_one_element_wrt_tuple_returns_a_tuple():
    """The documented difference: Tangent returned dx for wrt=(0,), adjoin returns (dx,)."""
    got = grad(saxpy, wrt=(0,))(1.5, -0.7, 0.3)
    assert isinstance(got, tuple) and len(got) == 1 and got[0] == pytest.approx(-0.7)
    got = grad(saxpy, wrt=(1,), preserve_result=True)(1.5, -0.7, 0.3)
    assert got == pytest.approx((1.5, 1.5 * -0.7 + 0.3))


def test_seed_is_an_extra_positional_argument():
    """Tangent: df(*args, seed); the default seed is 1.0."""
    df = grad(nested_for)
    assert df(0.3, 2.5) == pytest.approx(2.5 * df(0.3))
    ds = grad(serial_for)                      # an int argument before the seed
    assert ds(0.4, 3, -2.0) == pytest.approx(-2.0 * ds(0.4, 3))
    x = rng.normal(size=4)
    seed = rng.normal(size=4)
    expected = fd_grads(elementwise, (x,), [0], seed=seed)[0]
    assert_close(grad(elementwise)(x, seed), expected, 1e-5, 1e-6, what="array seed")
    assert_close(grad(elementwise, check_dims=True)(x, seed), expected, 1e-5, 1e-6, what="checked")


def test_check_dims():
    """check_dims=True: an array output needs a seed of its shape (Tangent's default);
    check_dims=False (adjoin's default) seeds it with ones."""
    x = rng.normal(size=4)
    with pytest.raises(ValueError, match=r"output has shape \(4,\).*check_dims=False"):
        grad(elementwise, check_dims=True)(x)
    with pytest.raises(ValueError, match=r"seed, of shape \(1,\)"):
        grad(elementwise, check_dims=True)(x, np.ones(1))     # numpy would broadcast it
    with pytest.raises(ValueError):
        grad(elementwise, check_dims=True)(x, np.ones(3))     # numpy refuses it first
    ones = fd_grads(elementwise, (x,), [0])[0]
    assert_close(grad(elementwise)(x), ones, 1e-5, 1e-6, what="ones seed")
    assert_close(grad(elementwise, check_dims=False)(x), ones, 1e-5, 1e-6, what="ones seed")
    assert grad(overwrite_if, check_dims=True)(1.3) == pytest.approx(3.0)   # scalar output


def test_positional_arguments_in_tangents_order():
    """tangent.grad(func, wrt, optimized, preserve_result, check_dims, verbose)."""
    dx, value = grad(overwrite_if, (0,), True, True, True, 0)(1.3)   # preserve_result=True
    assert dx == pytest.approx(3.0)
    assert value == pytest.approx(3.9)


@pytest.mark.parametrize("fn,args", CASES, ids=[_id(c) for c in CASES])
def test_unoptimized_code_gives_the_same_gradient(fn, args):
    fast, slow = grad(fn), grad(fn, optimized=False)
    assert_close(slow(*args), fast(*args), 1e-12, 1e-12, what=fn.__name__)
    assert len(slow.source.splitlines()) >= len(fast.source.splitlines())


def test_unoptimized_keeps_the_copies_the_optimizer_removes():
    fast, slow = grad(nested_if).source, grad(nested_if, optimized=False).source
    assert fast != slow


def test_verbose_prints_the_generated_code(capsys):
    df = grad(cond_loop, verbose=1)
    out = capsys.readouterr().out
    assert out == df.source and "def dcond_loopda(" in out and "# grad of:" in out
    grad(cond_loop, verbose=2)
    out = capsys.readouterr().out
    for stage in ("# --- parsed ---", "# --- normalized ---", "# --- reverse ---", "# --- generated ---"):
        assert stage in out
    assert out.endswith(df.source)
    grad(cond_loop, verbose=0)
    assert capsys.readouterr().out == ""


def test_gradient_functions_with_tangent_options_pickle():
    df = grad(elementwise, optimized=False, check_dims=True)
    back = pickle.loads(pickle.dumps(df))
    x = rng.normal(size=3)
    with pytest.raises(ValueError):
        back(x)
    assert_close(back(x, np.ones(3)), df(x, np.ones(3)), 0, 0)
    assert back.source == df.source
