"""Python-float arguments: the gradient runs a variant specialised on them (no
``unbroadcast``/``ones_like`` bookkeeping), without any annotation, and stays correct.
"""

import math

import numpy as np

from tests.fd import assert_close, numeric_grad
from tests.transpiler.checks import check
from transpiler import differentiate


def scalar_loop(x, a):
    y = x
    for i in range(50):
        y = math.sin(y) * a + 0.1 * y
    return y


def counter_loop(x, n):
    s = 0.0
    for i in range(n):
        s = s + x * i + math.cos(s)
    return s


def mixed(x, v):
    return np.sum(np.sin(x * v) + x * x)


def _variant(d, *args):
    return d._t.get(d._wrt, False, floats=d._t.floats(args, {}))


def test_float_variant_has_no_broadcasting_bookkeeping():
    d = differentiate(scalar_loop, wrt=(0, 1))
    generic = d.source
    special = _variant(d, 0.3, 0.9).source
    assert "unbroadcast" in generic and "ones_like" in generic
    assert "unbroadcast" not in special and "ones_like" not in special, special
    # and the specialised gradient is the right one
    gx, ga = d.grad(0.3, 0.9)
    fd_x = numeric_grad(lambda x: scalar_loop(float(x), 0.9), 0.3)
    fd_a = numeric_grad(lambda a: scalar_loop(0.3, float(a)), 0.9)
    assert_close(gx, fd_x, 1e-6, 1e-8, what="d/dx")
    assert_close(ga, fd_a, 1e-6, 1e-8, what="d/da")


def test_range_counter_is_a_scalar():
    d = differentiate(counter_loop)
    assert "unbroadcast" not in _variant(d, 0.4, 7).source
    assert_close(d.grad(0.4, 7), numeric_grad(lambda x: counter_loop(float(x), 7), 0.4), 1e-6, 1e-8)


def test_arrays_after_floats_use_the_general_code():
    d = differentiate(mixed, wrt=(0, 1))
    v = np.array([0.2, -1.0, 0.7])
    gf = d.grad(0.5, v)                         # x a float: specialised
    ga = d.grad(np.array([0.5, 0.5, 0.5]), v)   # x an array: general, with unbroadcast
    assert np.shape(gf[0]) == () and np.shape(ga[0]) == (3,)
    assert_close(np.sum(ga[0]), gf[0], 1e-12, 1e-12, what="float vs array x")
    check(mixed, 0.5, v, wrt=(0, 1))
    check(mixed, np.array([0.5, -0.1, 2.0]), v, wrt=(0, 1))


def test_vjp_and_value_and_grad_with_floats():
    d = differentiate(scalar_loop, wrt=0)
    value, g = d.value_and_grad(0.3, 0.9)
    assert value == scalar_loop(0.3, 0.9)
    _, pullback = d.vjp(0.3, 0.9)
    assert_close(pullback(2.0), 2.0 * g, 1e-12, 1e-12, what="pullback(2.0)")


def builtins_on_floats(x, a):
    s = float(a)
    for i in range(4):
        s = s + abs(x) * math.exp(-s * 0.1) * i
    return s


def test_float_and_abs_of_scalars_are_scalars():
    d = differentiate(builtins_on_floats)
    assert "unbroadcast" not in _variant(d, 0.7, 0.2).source
    assert_close(d.grad(0.7, 0.2), numeric_grad(lambda x: builtins_on_floats(float(x), 0.2), 0.7),
                 1e-6, 1e-8)
    assert_close(d.grad(-0.7, 0.2), numeric_grad(lambda x: builtins_on_floats(float(x), 0.2), -0.7),
                 1e-6, 1e-8)
