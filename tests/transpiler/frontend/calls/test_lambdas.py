"""Lambdas, nested functions and ``functools.partial`` inside differentiated functions (frontend/calls/nested.py):
called directly, passed to user functions and builtins, made in loops, closing over active values.

Every function in ``CASES`` is also swept by tests/transpiler/corpus.py through forward mode (test_forward.py)
and second order (test_higher.py).  Each takes numbers or arrays only and builds its structures itself.
"""

import functools
import re

import numpy as np
import pytest

from tests.transpiler.checks import check
from transpiler import TranspileError, grad

rng = np.random.default_rng(2026)
V = rng.normal(size=4)
W = rng.normal(size=4)
M = rng.normal(size=(2, 3))
T3 = rng.normal(size=(2, 3, 4))
S = 0.7
T = -0.4


SQUARE = lambda v: v * v  # noqa: E731  (a module-level lambda)


def apply_twice(fn, v):
    return fn(fn(v))


def make_scaler(c):
    return lambda v: v * c


def make_poly(a, b):
    def p(t):
        return a * t * t + b
    return p


def apply_scaled(g, v, scale=2.0):
    y = g(v) * scale
    return y


def compose(f, g, v):
    return f(g(v))


def lam_local(x):
    f = lambda v: np.sin(v) * 2.0  # noqa: E731
    return np.sum(f(x))


def lam_module(x):
    return np.sum(SQUARE(x) + x)


def lam_map(x):
    return sum(map(lambda v: v * v, [x[0], x[1], x[2]]))


def lam_sorted_key(x):
    items = sorted([x[0], x[1], x[2], x[3]], key=lambda v: -v)
    return items[0] * 2.0 + items[1]


def lam_max_key(x):
    return max([x[0], x[1], x[2]], key=lambda v: v * v) * x[3]


def lam_higher_order(x):
    return np.sum(apply_twice(lambda v: np.tanh(v) * 1.5, x))


def lam_factory(x):
    scale = make_scaler(3.0)
    return np.sum(scale(x) * x)


def lam_closure_over_active(x):
    g = lambda v: v * x[0]  # noqa: E731
    return np.sum(g(x) * g(x[1]))


def lam_to_user_function(x):
    return np.sum(apply_scaled(lambda t: t * t, x))


def lam_nested_def_to_user_function(x):
    c = x[0]

    def sq(t):
        return t * t * c

    v = x * 2.0                          # compose and apply_scaled have their own `v`
    return np.sum(compose(np.sin, sq, x)) + np.sum(apply_scaled(lambda v: v * c, v, scale=3.0))


def lam_to_user_function_in_loop(x):
    s = 0.0
    for i in range(3):
        s = s + apply_scaled(lambda t: t * x[i + 1], x[i])
    return s


def lam_factory_over_active(x):
    s = make_scaler(x[0])
    return np.sum(s(x) * x)


def lam_factory_def_over_active(x):
    p = make_poly(x[0], x[1] * 2.0)
    return p(x[2]) + p(x[3])


def lam_local_factory(x):
    def make(c):
        return lambda t: t * c
    g = make(x[0] ** 2)
    return np.sum(g(x))


def lam_nonlocal_in_loop(x):
    total = 1.0
    count = 0

    def add(v):
        nonlocal total, count
        total = total * v + count
        count = count + 1
        return total

    s = 0.0
    for i in range(4):
        s = s + add(x[i])
        if x[i] > 0:
            add(x[0])
    return total + s


def lam_nonlocal_step(x):
    acc = x[0]

    def step():
        nonlocal acc
        acc = np.sin(acc) * x[1]

    for _ in range(3):
        step()
    return acc


def lam_partial(x):
    f = functools.partial(np.power, x)
    return np.sum(f(2.0))


def _weighted(a, b, w):
    return a * w + b


def lam_partial_now(x):
    return functools.partial(_weighted, w=x[2])(x[0], x[1]) * x[3]


def lam_partial_user(x):
    f = functools.partial(_weighted, w=2.5)
    return np.sum(f(x, np.cos(x)))


def lam_nested_def_closure(x):
    c = np.exp(x[0])

    def inner(v):
        return v * c

    return np.sum(inner(x) ** 2)


def lam_nonlocal(x):
    total = 0.0

    def add(v):
        nonlocal total
        total = total + v * v

    add(x[0])
    add(x[1] * 2.0)
    return total


def mix_partial_in_loop(x):
    f = functools.partial(_weighted, b=x[3])
    s = 0.0
    for i in range(3):
        s = s + f(x[i], w=2.0)
    return s


def _apply_twice_scaled(fn, v):
    return fn(fn(v)) * 0.5


def loop_lambda_same_trip(x):
    s = 0.0
    for i in range(3):
        h = lambda v: v * x[i]  # noqa: E731
        s = s + h(x[i + 1])
    return s


def loop_lambda_over_trip_value(x):
    s = 0.0
    for i in range(3):
        c = np.sin(x[i]) * 2.0
        h = lambda v, w=1.0: v * c + w  # noqa: E731
        s = s + h(x[3])
    return s


def loop_lambda_passed(x):
    s = 0.0
    for i in range(3):
        s = s + _apply_twice_scaled(lambda v: v * x[i], x[i + 1])
    return s


def loop_lambda_in_map_and_sorted(x):
    s = 0.0
    for i in range(2):
        s = s + sum(map(lambda v: v * x[i], [x[2], x[3]]))
        l = sorted([x[0], x[1] * x[i], x[2]], key=lambda v: -v)
        s = s + l[0] * 2.0 + l[1]
    return s


def loop_lambda_called_directly(x):
    s = 0.0
    for i in range(3):
        s = s + (lambda v: v * x[i] + s)(x[i + 1])
    return s


def loop_lambda_carries_state(x):
    s = x[0]
    i = 0
    while i < 3:
        h = lambda v: v * s + x[i]  # noqa: E731
        s = h(x[i + 1])
        i += 1
    return s


def test_partial_rebound_or_passed_on_is_not_rewritten():
    def f(x):
        g = functools.partial(_weighted, w=2.0)
        g = functools.partial(_weighted, w=3.0)      # bound twice: left as written (refused)
        return g(x[0], x[1])
    with pytest.raises(TypeError, match="cannot differentiate through functools.partial"):
        grad(f)(V)


CUBE = lambda v: np.sum(v ** 3)  # noqa: E731


TWO = (lambda v: v * 2.0, lambda v: v * 3.0)


def test_a_lambda_is_differentiated_directly():
    from tests.fd import numeric_grad
    assert np.allclose(grad(CUBE)(V), numeric_grad(CUBE, V))
    assert "def dlambda_dv(" in grad(CUBE).source


def test_two_lambdas_with_the_same_parameters_on_one_line_are_refused():
    with pytest.raises(TranspileError, match="only lambda with its parameters") as info:
        grad(TWO[0])(0.5)
    assert info.value.filename == __file__


def _other_module_apply(x):
    return np.sum(functools.reduce(lambda a, b: a + b, [x, x * 2.0]))


def lam_factory_in_loop(x):
    s = 0.0
    for i in range(2):
        g = make_scaler(x[i])
        s = s + g(x[3])
    return s


def lam_passed_changes_caller(x):
    total = x[0]

    def add(v):
        nonlocal total
        total = total + v
        return v

    return apply_scaled(add, x[1]) + total


def called_result(x):
    return make_scaler(x[0])(x[1])


@pytest.mark.parametrize("fn,words", [
    (_other_module_apply, "passed to `map`, `filter`, `sorted`, `max`, `min` or to a plain function defined in this module"),
    (lam_factory_in_loop, "a function made by a call inside a loop"),
    (lam_passed_changes_caller, "changes `total` of the function that made it"),
], ids=["other_module", "factory_in_loop", "passed_changes_caller"])
def test_functions_passed_around_that_are_refused(fn, words):
    with pytest.raises(TranspileError, match=re.escape(words)) as info:
        grad(fn)(V)
    assert info.value.filename == __file__ and info.value.lineno


CASES = [
    (called_result, (V,), 0),
    (loop_lambda_same_trip, (V,), 0),
    (loop_lambda_over_trip_value, (V,), 0),
    (loop_lambda_passed, (V,), 0),
    (loop_lambda_in_map_and_sorted, (V,), 0),
    (loop_lambda_called_directly, (V,), 0),
    (loop_lambda_carries_state, (V,), 0),
    (lam_local, (V,), 0),
    (lam_map, (V,), 0),
    (lam_sorted_key, (V,), 0),
    (lam_max_key, (V,), 0),
    (lam_closure_over_active, (V,), 0),
    (lam_partial, (V,), 0),
    (lam_partial_user, (V,), 0),
    (lam_nested_def_closure, (V,), 0),
    (lam_module, (V,), 0),
    (lam_factory, (V,), 0),
    (lam_higher_order, (V,), 0),
    (lam_nonlocal, (V,), 0),
    (lam_to_user_function, (V,), 0),
    (lam_nested_def_to_user_function, (V,), 0),
    (lam_to_user_function_in_loop, (V,), 0),
    (lam_factory_over_active, (V,), 0),
    (lam_factory_def_over_active, (V,), 0),
    (lam_local_factory, (V,), 0),
    (lam_nonlocal_in_loop, (V,), 0),
    (lam_nonlocal_step, (V,), 0),
    (lam_partial_now, (V,), 0),
    (mix_partial_in_loop, (V,), 0),
]


@pytest.mark.parametrize("fn,args,wrt", CASES, ids=[c[0].__name__ for c in CASES])
def test_reverse(fn, args, wrt):
    check(fn, *args, wrt=wrt, tape=False)   # finite differences; the tape cannot run list sorts etc.
