"""Rules for Python's math module (runtime/rules/pymath.py): scalar code, math functions only."""

import ast
import inspect
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from runtime.rules import lookup
from runtime.rules import pymath
from tests.fd import assert_close
from tests.runtime.rules.rules_check import check_hvp_by_fd

# fn, domain per argument (lo, hi)
CASES = [
    (math.exp, [(-2, 2)]),
    (math.expm1, [(-2, 2)]),
    (math.log, [(0.2, 3)]),
    (math.log, [(0.2, 3), (1.5, 4)]),
    (math.log2, [(0.2, 3)]),
    (math.log10, [(0.2, 3)]),
    (math.log1p, [(-0.8, 3)]),
    (math.sqrt, [(0.2, 3)]),
    (math.pow, [(0.3, 2), (-2, 2)]),
    (math.fabs, [(0.05, 2)]),
    (math.fabs, [(-2, -0.05)]),
    (math.sin, [(-3, 3)]),
    (math.cos, [(-3, 3)]),
    (math.tan, [(-1.2, 1.2)]),
    (math.asin, [(-0.9, 0.9)]),
    (math.acos, [(-0.9, 0.9)]),
    (math.atan, [(-2, 2)]),
    (math.atan2, [(0.3, 2), (-2, -0.3)]),
    (math.sinh, [(-2, 2)]),
    (math.cosh, [(-2, 2)]),
    (math.tanh, [(-2, 2)]),
    (math.asinh, [(-2, 2)]),
    (math.acosh, [(1.2, 3)]),
    (math.atanh, [(-0.9, 0.9)]),
    (math.hypot, [(0.3, 2), (-2, -0.3)]),
]


def _id(case):
    return f"{case[0].__name__}/{len(case[1])}"


def _fd(f, x, eps=1e-6):
    return (f(x + eps) - f(x - eps)) / (2 * eps)


def _args(data, doms):
    return [data.draw(st.floats(lo, hi)) for lo, hi in doms]


@pytest.mark.parametrize("fn,doms", CASES, ids=[_id(c) for c in CASES])
@given(data=st.data(), g=st.floats(-2, 2))
def test_first_order(fn, doms, data, g):
    args = _args(data, doms)
    rule = lookup(fn)
    ans = fn(*args)
    for i in range(len(args)):
        def f(xi, i=i):
            new = list(args)
            new[i] = xi
            return fn(*new)
        want = _fd(f, args[i])
        got_v = rule.vjp(i)(g, ans, *args)
        got_j = rule.jvp(i)(g, ans, *args)
        assert isinstance(got_v, float) and isinstance(got_j, float)
        assert_close(got_v, g * want, rtol=1e-5, atol=1e-6, what=f"{fn.__name__} vjp[{i}]")
        assert_close(got_j, g * want, rtol=1e-5, atol=1e-6, what=f"{fn.__name__} jvp[{i}]")


@pytest.mark.parametrize("fn,doms", CASES, ids=[_id(c) for c in CASES])
@given(data=st.data())
def test_second_order(fn, doms, data):
    args = _args(data, doms)
    for i in range(len(args)):
        check_hvp_by_fd(fn, args, i)


def test_tf_edges():
    assert lookup(math.sqrt).vjp(0)(0.0, 0.0, 0.0) == 0.0          # zero incoming gradient
    assert lookup(math.fabs).vjp(0)(1.0, 0.0, 0.0) == 0.0          # |x|' at 0 is 0
    assert lookup(math.pow).vjp(1)(1.0, 0.0, 0.0, 2.0) == 0.0      # d/dy x**y at x = 0
    assert lookup(math.pow).vjp(0)(1.0, 1.0, 0.0, 0.0) == 0.0      # y = 0: x**0 is constant


def test_rules_use_math_only_and_never_unbroadcast():
    tree = ast.parse(inspect.getsource(pymath))
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    assert "np" not in names and "numpy" not in names
    assert "unbroadcast" not in names and "broadcast_like" not in names
