"""Activation primitives (runtime/rules/activations.py): values, stability and rules."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import runtime as tf
from runtime.rules import lookup
from runtime.rules.activations import logsumexp, relu, sigmoid, softplus
from tests.fd import assert_close
from tests.runtime.rules.rules_check import check_hvp, check_jvp, check_vjp, seeds, shapes, values

UNARY = [(sigmoid, (-4, 4, False)), (relu, (0.05, 3, True)), (softplus, (-4, 4, False))]


@pytest.mark.parametrize("fn,dom", UNARY, ids=[f.__name__ for f, _ in UNARY])
@given(shape=shapes(), seed=seeds)
def test_unary(fn, dom, shape, seed):
    rng = np.random.default_rng(seed)
    x = values(rng, shape, *dom)
    check_vjp(fn, [x], rng=rng)
    check_jvp(fn, [x], rng=rng)
    check_hvp(fn, [x], rng=rng)


def test_values_match_naive_formulas_and_are_stable():
    x = np.linspace(-5, 5, 11)
    assert_close(sigmoid(x), 1 / (1 + np.exp(-x)))
    assert_close(softplus(x), np.log1p(np.exp(x)))
    assert_close(relu(x), np.maximum(x, 0))
    big = np.array([-1000.0, 1000.0])
    with np.errstate(over="raise", invalid="raise"):  # no overflow warnings
        assert_close(sigmoid(big), np.array([0.0, 1.0]))
        assert_close(softplus(big), np.array([0.0, 1000.0]))
        assert_close(logsumexp(big), np.array(1000.0))
    assert sigmoid(np.float32(1.0)).dtype == np.float32
    assert relu(np.ones(2, np.float32)).dtype == np.float32


def test_relu_gradient_at_zero_is_zero():
    x = np.array([-1.0, 0.0, 2.0])
    assert_close(lookup(relu).vjp(0)(np.ones(3), relu(x), x), np.array([0.0, 0.0, 1.0]))


axes = st.sampled_from([None, 0, -1, (0, 1), (-1, 0)])


@given(shape=shapes(min_dims=2), axis=axes, keepdims=st.booleans(), seed=seeds)
def test_logsumexp(shape, axis, keepdims, seed):
    rng = np.random.default_rng(seed)
    x = values(rng, shape, -3, 3)
    kw = {"axis": axis, "keepdims": keepdims}
    assert_close(logsumexp(x, **kw), np.log(np.sum(np.exp(x), axis=axis, keepdims=keepdims)))
    check_vjp(logsumexp, [x], kwargs=kw, rng=rng)
    check_jvp(logsumexp, [x], kwargs=kw, rng=rng)
    check_hvp(logsumexp, [x], kwargs=kw, rng=rng)


def test_logsumexp_of_all_minus_infinity():
    x = np.full((2, 3), -np.inf)
    assert np.all(logsumexp(x, axis=1) == -np.inf)


def test_primitives_record_as_one_op_on_tensors():
    x = tf.constant(np.array([0.5, -1.0]))
    with tf.GradientTape() as t:
        t.watch(x)
        y = np.sum(softplus(x))
    assert_close(t.gradient(y, x).numpy(), sigmoid(np.array([0.5, -1.0])))
