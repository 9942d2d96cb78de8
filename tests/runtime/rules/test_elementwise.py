"""Elementwise rules (runtime/rules/elementwise.py): first order both modes, second order
through nested tapes, float32 preservation, and TF's values at the edges."""

import builtins
import operator

import numpy as np
import pytest
from hypothesis import given

import runtime as tf
from runtime.rules import lookup
from tests.fd import assert_close
from tests.runtime.rules.rules_check import (
    check_binary,
    broadcastable, check_hvp, check_jvp, check_vjp, seeds, shapes, values,
)

# fn, domain (lo, hi, signed): values uniform in [lo, hi], times a random sign when signed
UNARY = [
    (np.exp, (-2, 2, False)),
    (np.exp2, (-2, 2, False)),
    (np.expm1, (-2, 2, False)),
    (np.log, (0.2, 3, False)),
    (np.log2, (0.2, 3, False)),
    (np.log10, (0.2, 3, False)),
    (np.log1p, (-0.8, 3, False)),
    (np.sqrt, (0.2, 3, False)),
    (np.cbrt, (0.2, 3, True)),
    (np.square, (-2, 2, False)),
    (np.reciprocal, (0.3, 3, True)),
    (np.abs, (0.05, 2, True)),
    (builtins.abs, (0.05, 2, True)),
    (np.sign, (0.05, 2, True)),
    (np.sin, (-3, 3, False)),
    (np.cos, (-3, 3, False)),
    (np.tan, (-1.2, 1.2, False)),
    (np.arcsin, (-0.9, 0.9, False)),
    (np.arccos, (-0.9, 0.9, False)),
    (np.arctan, (-2, 2, False)),
    (np.sinh, (-2, 2, False)),
    (np.cosh, (-2, 2, False)),
    (np.tanh, (-2, 2, False)),
    (np.arcsinh, (-2, 2, False)),
    (np.arccosh, (1.2, 3, False)),
    (np.arctanh, (-0.9, 0.9, False)),
    (np.deg2rad, (-3, 3, False)),
    (np.rad2deg, (-3, 3, False)),
]

# fn, domain of x, domain of y
BINARY = [
    (np.logaddexp, (-2, 2, False), (-2, 2, False)),
    (np.arctan2, (0.3, 2, True), (0.3, 2, True)),
    (np.hypot, (0.3, 2, True), (0.3, 2, True)),
    (np.maximum, (-2, 2, False), (-2, 2, False)),
    (np.minimum, (-2, 2, False), (-2, 2, False)),
    (np.mod, (-3, 3, False), (0.5, 2, True)),
    (operator.mod, (-3, 3, False), (0.5, 2, True)),
    (np.fmod, (-3, 3, False), (0.5, 2, True)),
]

ids = lambda p: getattr(p, "__name__", str(p))  # noqa: E731


@pytest.mark.parametrize("fn,dom", UNARY, ids=[ids(f) for f, _ in UNARY])
@given(shape=shapes(), seed=seeds)
def test_unary_first_order(fn, dom, shape, seed):
    rng = np.random.default_rng(seed)
    x = values(rng, shape, *dom)
    check_vjp(fn, [x], rng=rng)
    check_jvp(fn, [x], rng=rng)


@pytest.mark.parametrize("fn,dom", UNARY, ids=[ids(f) for f, _ in UNARY])
@given(shape=shapes(max_dims=2, max_side=3), seed=seeds)
def test_unary_second_order(fn, dom, shape, seed):
    rng = np.random.default_rng(seed)
    check_hvp(fn, [values(rng, shape, *dom)], rng=rng)


@pytest.mark.parametrize("fn,dx,dy", BINARY, ids=[ids(f) for f, _, _ in BINARY])
@given(shp=broadcastable(), seed=seeds)
def test_binary_first_order(fn, dx, dy, shp, seed):
    check_binary(fn, dx, dy, shp, seed)


@pytest.mark.parametrize("fn,dx,dy", BINARY, ids=[ids(f) for f, _, _ in BINARY])
@given(shp=broadcastable(max_dims=2), seed=seeds)
def test_binary_second_order(fn, dx, dy, shp, seed):
    check_binary(fn, dx, dy, shp, seed, second_order=True)


@given(shp=broadcastable(3), seed=seeds)
def test_where(shp, seed):
    rng = np.random.default_rng(seed)
    args = [rng.random(shp[0]) < 0.5, values(rng, shp[1]), values(rng, shp[2])]
    assert lookup(np.where).vjp(0) is None  # the condition gets no gradient
    for i in (1, 2):
        check_vjp(np.where, args, i, rng=rng)
        check_jvp(np.where, args, i, rng=rng)
        check_hvp(np.where, args, i, rng=rng)
        check_hvp(_where_of_nonlinear, args, i, rng=rng)


def _where_of_nonlinear(c, x, y):
    return np.where(c, x * x, np.sin(y))


@given(shp=broadcastable(3), seed=seeds)
def test_clip(shp, seed):
    rng = np.random.default_rng(seed)
    args = [values(rng, shp[0], -3, 3), values(rng, shp[1], -1.5, -0.5), values(rng, shp[2], 0.5, 1.5)]
    for i in (0, 1, 2):
        check_vjp(np.clip, args, i, rng=rng)
        check_jvp(np.clip, args, i, rng=rng)
    check_hvp(np.clip, args, 0, rng=rng)
    # keyword bounds and a None bound bind the same way
    check_vjp(np.clip, [args[0]], 0, kwargs={"a_min": None, "a_max": args[2]}, rng=rng)
    check_vjp(np.clip, [args[0]], 0, kwargs={"min": args[1], "max": args[2]}, rng=rng)


# --- float32 stays float32 (rules must not promote with float64 scalars) ---------------------

@pytest.mark.parametrize("fn,dom", UNARY, ids=[ids(f) for f, _ in UNARY])
def test_unary_rules_keep_float32(fn, dom):
    rng = np.random.default_rng(1)
    x = values(rng, (2, 3), *dom).astype(np.float32)
    ans = fn(x)
    g = np.ones_like(ans)
    rule = lookup(fn)
    assert rule.vjp(0)(g, ans, x).dtype == np.float32
    assert rule.jvp(0)(g, ans, x).dtype == np.float32


@pytest.mark.parametrize("fn,dx,dy", BINARY, ids=[ids(f) for f, _, _ in BINARY])
def test_binary_rules_keep_float32(fn, dx, dy):
    rng = np.random.default_rng(1)
    x = values(rng, (2, 3), *dx).astype(np.float32)
    y = values(rng, (3,), *dy).astype(np.float32)
    ans = fn(x, y)
    rule = lookup(fn)
    assert rule.vjp(0)(np.ones_like(ans), ans, x, y).dtype == np.float32
    assert rule.vjp(1)(np.ones_like(ans), ans, x, y).dtype == np.float32


# --- TF values at the edges -------------------------------------------------------------------

def _grad(f, *xs):
    xs = [tf.constant(np.asarray(x, dtype=np.float64)) for x in xs]
    with tf.GradientTape() as t:
        for x in xs:
            t.watch(x)
        y = f(*xs)
    gs = t.gradient(y, xs)
    return [None if g is None else g.numpy() for g in gs]


@pytest.mark.parametrize("fn,first,second", [(np.maximum, 1.0, 0.0), (np.minimum, 1.0, 0.0)])
def test_tie_gives_whole_gradient_to_first_argument(fn, first, second):
    x = np.array([1.0, 2.0, -3.0])
    gx, gy = _grad(lambda a, b: np.sum(fn(a, b)), x, x.copy())
    assert_close(gx, np.full(3, first), what="first argument")
    assert_close(gy, np.full(3, second), what="second argument")
    # broadcasting tie: y is a scalar equal to one element of x
    gx, gy = _grad(lambda a, b: np.sum(fn(a, b)), np.array([1.0, 5.0]), np.array(1.0))
    assert gx[0] == 1.0 and gy.shape == ()


def test_clip_gradient_is_one_at_the_bounds_and_zero_outside():
    x = np.array([-1.0, 0.0, 0.5, 1.0, 2.0])
    (gx,) = _grad(lambda a: np.sum(np.clip(a, 0.0, 1.0)), x)
    assert_close(gx, np.array([0.0, 1.0, 1.0, 1.0, 0.0]))
    gx, glo, ghi = _grad(lambda a, lo, hi: np.sum(np.clip(a, lo, hi)), x, np.array(0.0), np.array(1.0))
    assert_close(glo, np.array(1.0), what="lower bound gets the gradient of elements below it")
    assert_close(ghi, np.array(1.0), what="upper bound gets the gradient of elements above it")


def test_sign_gradient_is_zero_not_none():
    (gx,) = _grad(lambda a: np.sum(np.sign(a) * a), np.array([-2.0, 0.0, 3.0]))
    # d/da (sign(a) * a) = sign(a) + 0 * a  (the sign path contributes zeros, not None)
    assert_close(gx, np.array([-1.0, 0.0, 1.0]))
    (gs,) = _grad(lambda a: np.sum(np.sign(a)), np.array([-2.0, 0.0, 3.0]))
    assert gs is not None
    assert_close(gs, np.zeros(3))


def test_abs_gradient_at_zero_is_zero():
    (gx,) = _grad(lambda a: np.sum(np.abs(a)), np.array([-2.0, 0.0, 3.0]))
    assert_close(gx, np.array([-1.0, 0.0, 1.0]))


def test_sqrt_gradient_is_zero_where_incoming_gradient_is_zero():
    rule = lookup(np.sqrt).vjp(0)
    x = np.array([0.0, 4.0, 0.0])
    g = np.array([0.0, 1.0, 1.0])
    with np.errstate(divide="ignore"):
        got = rule(g, np.sqrt(x), x)
    assert got[0] == 0.0 and got[1] == 0.25 and got[2] == np.inf
    # through the tape, including the second derivative, no NaN leaks from x = 0
    mask = np.array([0.0, 1.0])
    x = tf.constant(np.array([0.0, 4.0]))
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = np.sum(np.sqrt(x) * mask)
        g = inner.gradient(y, x)
        s = np.sum(g)
    h = outer.gradient(s, x).numpy()
    assert_close(g.numpy(), np.array([0.0, 0.25]))
    assert_close(h, np.array([0.0, -1.0 / 32.0]))


def test_mod_gradient_follows_tf_floormod():
    x, y = np.array([7.5, -7.5]), np.array([2.0, 2.0])
    gx, gy = _grad(lambda a, b: np.sum(a % b), x, y)
    assert_close(gx, np.ones(2))
    assert_close(gy, -np.floor(x / y))


def test_where_leaks_nan_from_branch_not_taken_for_log():
    # TF: tf.where(x > 0, log(x), 0) at x = 0 gives NaN (0 * inf in log's gradient)
    with np.errstate(divide="ignore", invalid="ignore"):
        (gx,) = _grad(lambda a: np.sum(np.where(a > 0, np.log(a), 0.0)), np.array([0.0, 1.0]))
    assert np.isnan(gx[0]) and gx[1] == 1.0
