"""Arithmetic rules (runtime/rules/arithmetic.py): + - * / ** unary -/+ and @."""

import operator

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import runtime as tf
from runtime.rules import lookup
from tests.fd import assert_close
from tests.runtime.rules.rules_check import (
    check_binary,
    broadcastable, check_hvp, check_jvp, check_vjp, seeds, shapes, values,
)

BINARY = [
    (np.add, (-2, 2, False), (-2, 2, False)),
    (operator.add, (-2, 2, False), (-2, 2, False)),
    (np.subtract, (-2, 2, False), (-2, 2, False)),
    (operator.sub, (-2, 2, False), (-2, 2, False)),
    (np.multiply, (-2, 2, False), (-2, 2, False)),
    (operator.mul, (-2, 2, False), (-2, 2, False)),
    (np.true_divide, (-2, 2, False), (0.3, 2, True)),
    (operator.truediv, (-2, 2, False), (0.3, 2, True)),
    (np.power, (0.3, 2, False), (-2, 2, False)),
    (operator.pow, (0.3, 2, False), (-2, 2, False)),
]
UNARY = [np.negative, operator.neg, np.positive, operator.pos]


def _id(f):
    return f"{getattr(f, '__module__', '')}.{f.__name__}"


@pytest.mark.parametrize("fn,dx,dy", BINARY, ids=[_id(f) for f, _, _ in BINARY])
@given(shp=broadcastable(), seed=seeds)
def test_binary(fn, dx, dy, shp, seed):
    check_binary(fn, dx, dy, shp, seed)


@pytest.mark.parametrize("fn,dx,dy", BINARY, ids=[_id(f) for f, _, _ in BINARY])
@given(shp=broadcastable(max_dims=2), seed=seeds)
def test_binary_second_order(fn, dx, dy, shp, seed):
    check_binary(fn, dx, dy, shp, seed, second_order=True)


@given(shp=broadcastable(), seed=seeds)
def test_power_negative_base_integer_exponent(shp, seed):
    rng = np.random.default_rng(seed)
    x = values(rng, shp[0], 0.3, 2, signed=True)
    y = rng.integers(-3, 4, size=shp[1]).astype(np.float64)
    check_vjp(np.power, [x, y], 0, rng=rng)
    check_jvp(np.power, [x, y], 0, rng=rng)


@pytest.mark.parametrize("fn", UNARY, ids=[_id(f) for f in UNARY])
@given(shape=shapes(), seed=seeds)
def test_unary(fn, shape, seed):
    rng = np.random.default_rng(seed)
    x = values(rng, shape)
    check_vjp(fn, [x], rng=rng)
    check_jvp(fn, [x], rng=rng)
    check_hvp(lambda a: fn(a) * a, [x], rng=rng)


# matmul: numpy's rules for 1-D operands and broadcast batch dimensions
matmul_shapes = st.sampled_from([
    ((2, 3), (3,)), ((3,), (5, 3, 4)), ((3,), (3, 4)), ((2, 3), (3, 4)),
    ((5, 2, 3), (3, 4)), ((2, 3), (5, 3, 4)), ((5, 1, 2, 3), (4, 3, 2)), ((5, 2, 3), (3,)),
])


@pytest.mark.parametrize("fn", [np.matmul, operator.matmul], ids=["np.matmul", "operator.matmul"])
@given(shp=matmul_shapes, seed=seeds)
def test_matmul(fn, shp, seed):
    rng = np.random.default_rng(seed)
    args = [values(rng, shp[0]), values(rng, shp[1])]
    for i in (0, 1):
        check_vjp(fn, args, i, rng=rng)
        check_jvp(fn, args, i, rng=rng)
    check_hvp(lambda a, b: fn(a * a, b), args, 0, rng=rng)


def test_matmul_vector_vector_first_argument():
    rng = np.random.default_rng(3)
    args = [values(rng, (3,)), values(rng, (3,))]
    check_vjp(np.matmul, args, 0, rng=rng)
    for i in (0, 1):
        check_jvp(np.matmul, args, i, rng=rng)


def test_matmul_vector_vector_second_argument():
    rng = np.random.default_rng(3)
    check_vjp(np.matmul, [values(rng, (3,)), values(rng, (3,))], 1, rng=rng)


def test_power_d_exponent_is_zero_at_zero_base():
    rule = lookup(np.power)
    x, y = np.array([0.0, 0.0]), np.array([2.0, 0.5])
    assert_close(rule.vjp(1)(np.ones(2), x ** y, x, y), np.zeros(2))
    x = tf.constant(np.array([0.0, 2.0]))
    y = tf.constant(np.array([2.0, 3.0]))
    with tf.GradientTape() as t:
        t.watch(y)
        z = np.sum(x ** y)
    assert_close(t.gradient(z, y).numpy(), np.array([0.0, 8.0 * np.log(2.0)]))
