"""Non-differentiable primitives (runtime/rules/nondiff.py): TF gives None through them."""

import builtins
import math
import operator

import numpy as np
import pytest

import runtime as tf
from runtime.rules import lookup

NONDIFF = [
    np.equal, np.not_equal, np.less, np.less_equal, np.greater, np.greater_equal,
    operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge,
    np.floor, np.ceil, np.round, np.around, np.rint, np.trunc, np.fix, builtins.round,
    math.floor, math.ceil, math.trunc, np.floor_divide, operator.floordiv,
    np.argmax, np.argmin, np.argsort, np.logical_and, np.logical_or, np.logical_not,
    np.logical_xor, np.isnan, np.isinf, np.isfinite, np.zeros_like, np.ones_like,
    np.argpartition, np.lexsort, np.nonzero, np.flatnonzero, np.searchsorted, np.isneginf, np.isposinf,
    np.left_shift, np.right_shift, np.bitwise_and, np.invert, np.gcd, np.nanargmax, np.count_nonzero,
    math.isnan, math.isclose, math.factorial, builtins.int, builtins.len,
]


@pytest.mark.parametrize("fn", NONDIFF, ids=[f"{getattr(f, '__module__', '')}.{f.__name__}" for f in NONDIFF])
def test_registered_as_nondifferentiable(fn):
    rule = lookup(fn)
    assert rule is not None and not rule.differentiable
    assert rule.vjp(0) is None and rule.jvp(0) is None


def test_mod_is_differentiable_like_tf_floormod():
    assert lookup(np.mod).differentiable and lookup(operator.mod).differentiable


# Each op's result feeds a differentiable op; the gradient through the non-differentiable
# path is None, as in TF.  (The "+ 0 * x" variants check the connected path still works.)
OPS = [
    lambda x: np.floor(x),
    lambda x: np.ceil(x),
    lambda x: np.round(x),
    lambda x: np.rint(x),
    lambda x: x // 2.0,
    lambda x: np.floor_divide(x, 2.0),
    lambda x: np.where(x > 0, 1.0, 0.0),
    lambda x: np.zeros_like(x),
    lambda x: np.ones_like(x),
]


@pytest.mark.parametrize("k", range(len(OPS)))
def test_gradient_is_none_through(k):
    x = tf.constant(np.array([0.5, -1.5, 2.25]))
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = np.sum(OPS[k](x) * 3.0)
        z = np.sum(OPS[k](x) * 3.0 + x * x)
    assert t.gradient(y, x) is None
    np.testing.assert_allclose(t.gradient(z, x).numpy(), 2 * np.array([0.5, -1.5, 2.25]))


def test_argmax_indexing_routes_gradient_to_the_selected_element():
    x = tf.constant(np.array([0.5, 3.0, 2.0]))
    with tf.GradientTape() as t:
        t.watch(x)
        i = np.argmax(x)
        y = x[int(i.numpy()) if hasattr(i, "numpy") else int(i)] * 2.0
    np.testing.assert_allclose(t.gradient(y, x).numpy(), [0.0, 2.0, 0.0])


def test_heaviside_passes_the_gradient_to_its_value_at_zero():
    x2 = tf.constant(np.array([0.25, 0.5]))
    with tf.GradientTape() as t:
        t.watch(x2)
        y = np.sum(np.heaviside(np.array([0.0, 1.0]), x2) * 3.0)
    np.testing.assert_allclose(t.gradient(y, x2).numpy(), [3.0, 0.0])


def test_index_valued_functions_on_watched_tensors_give_tensors_without_gradients():
    x = tf.constant(np.array([[0.5, -1.0], [0.0, 2.0]]))
    with tf.GradientTape() as t:
        t.watch(x)
        rows, cols = np.nonzero(x)              # a tuple of index tensors
        r2, c2 = np.where(x > 0)                # the one-argument form is np.nonzero
        m, e = np.frexp(x)
        y = np.sum(x[rows, cols]) + np.sum(x[r2, c2])
    np.testing.assert_array_equal(rows.numpy(), [0, 0, 1])
    np.testing.assert_array_equal(c2.numpy(), [0, 1])
    np.testing.assert_allclose(m.numpy() * 2.0 ** e.numpy(), x.numpy())
    np.testing.assert_allclose(t.gradient(y, x).numpy(), [[2.0, 1.0], [0.0, 2.0]])


def _indices_from_parameters(w):
    new_w = w[:, :-1]
    idx = np.int64(w[:, -1])            # autograd's test_cast_to_int
    return np.sum(new_w[idx] * new_w[idx])


def _called_from(w):                   # the callee's generated code is differentiated again
    return _indices_from_parameters(w) * 1.5


def test_integer_scalar_types_cut_the_gradient_in_every_order():
    """np.int64(x) in a callee: the transpiler's second order differentiates the callee's generated
    forward, where np.int64 had no rule (refused); the gradient of the indices is zero."""
    from tests.fd import assert_close, numeric_grad
    from transpiler import grad, hvp
    w = np.abs(np.random.default_rng(0).standard_normal((5, 4))) * 3
    assert_close(grad(_called_from)(w), numeric_grad(_called_from, w), what="first order")
    u = np.random.default_rng(1).standard_normal(w.shape)
    eps = 1e-5
    want = (grad(_called_from)(w + eps * u) - grad(_called_from)(w - eps * u)) / (2 * eps)
    assert_close(hvp(_called_from, w, u), want, what="hvp")
    for t in (np.int8, np.int32, np.int64, np.uint8, np.uint64, np.bool_):
        assert not lookup(t).differentiable
