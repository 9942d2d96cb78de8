"""Reduction rules (runtime/rules/reductions.py): axis/keepdims variants, ties, zeros."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import runtime as tf
from runtime.rules import lookup
from tests.fd import assert_close, numeric_grad
from tests.runtime.rules.rules_check import check_hvp, check_jvp, check_vjp, seeds, shapes, values

REDUCTIONS = [np.sum, np.mean, np.max, np.amax, np.min, np.amin, np.prod, np.var, np.std]
axes = st.sampled_from([None, 0, -1, 1, (0, 1), (-1, 0), ()])


def _axis_ok(axis, ndim):
    items = () if axis is None else (axis if isinstance(axis, tuple) else (axis,))
    return all(-ndim <= a < ndim for a in items) and len({a % ndim for a in items}) == len(items)


@pytest.mark.parametrize("fn", REDUCTIONS, ids=[f.__name__ for f in REDUCTIONS])
@given(shape=shapes(min_dims=0), axis=axes, keepdims=st.booleans(), seed=seeds)
def test_reduction(fn, shape, axis, keepdims, seed):
    if not _axis_ok(axis, len(shape)):
        axis = None
    rng = np.random.default_rng(seed)
    x = values(rng, shape, 0.5, 1.5, signed=True)
    kw = {"axis": axis, "keepdims": keepdims}
    if fn in (np.var, np.std) and np.size(fn(x, **kw)) and np.min(np.var(x, axis=axis)) < 1e-3:
        return  # (a reduction over one element: var's derivative is 0, std's is undefined)
    check_vjp(fn, [x], kwargs=kw, rng=rng)
    check_jvp(fn, [x], kwargs=kw, rng=rng)


@pytest.mark.parametrize("fn", REDUCTIONS, ids=[f.__name__ for f in REDUCTIONS])
@given(shape=shapes(min_dims=1, max_dims=2, max_side=3), axis=st.sampled_from([None, 0, -1]),
       keepdims=st.booleans(), seed=seeds)
def test_reduction_second_order(fn, shape, axis, keepdims, seed):
    rng = np.random.default_rng(seed)
    x = values(rng, shape, 0.5, 1.5, signed=True)
    kw = {"axis": axis, "keepdims": keepdims}
    if fn is np.std and np.min(np.var(x, axis=axis)) < 1e-3:
        return
    check_hvp(fn, [x], kwargs=kw, rng=rng)


@pytest.mark.parametrize("fn", [np.sum, np.prod, np.max, np.min, np.mean])
def test_positional_axis_binds_like_numpy(fn):
    rng = np.random.default_rng(0)
    x = values(rng, (2, 3), 0.5, 1.5)
    check_vjp(fn, [x, 1], rng=rng)
    check_jvp(fn, [x, 1], rng=rng)


@given(shape=shapes(min_dims=1), seed=seeds)
def test_sum_and_mean_where(shape, seed):
    rng = np.random.default_rng(seed)
    x = values(rng, shape)
    where = rng.random(shape) < 0.7
    where.flat[0] = True
    for fn in (np.sum, np.mean):
        kw = {"axis": None, "where": where}
        check_vjp(fn, [x], kwargs=kw, rng=rng)
        check_jvp(fn, [x], kwargs=kw, rng=rng)


@pytest.mark.parametrize("ddof", [0, 1])
def test_var_std_ddof(ddof):
    rng = np.random.default_rng(5)
    x = values(rng, (3, 4))
    for fn in (np.var, np.std):
        check_vjp(fn, [x], kwargs={"axis": 1, "ddof": ddof}, rng=rng)
        check_jvp(fn, [x], kwargs={"axis": 0, "ddof": ddof}, rng=rng)


@given(shape=shapes(min_dims=1), seed=seeds, axis=st.sampled_from([None, 0, -1]))
def test_cumsum(shape, seed, axis):
    rng = np.random.default_rng(seed)
    x = values(rng, shape)
    check_vjp(np.cumsum, [x], kwargs={"axis": axis}, rng=rng)
    check_jvp(np.cumsum, [x], kwargs={"axis": axis}, rng=rng)
    check_hvp(lambda a, axis: np.cumsum(a * a, axis), [x], kwargs={"axis": axis}, rng=rng)


# --- ties: max/min split the gradient evenly (TF reduce_max) ---------------------------------

@pytest.mark.parametrize("fn", [np.max, np.min])
def test_ties_split_evenly(fn):
    x = np.array([[1.0, 3.0, 3.0], [2.0, 2.0, 2.0]]) * (1 if fn is np.max else -1)
    rule = lookup(fn)
    ans = fn(x, axis=1)
    assert_close(rule.vjp(0)(np.array([1.0, 6.0]), ans, x, axis=1),
                 np.array([[0.0, 0.5, 0.5], [2.0, 2.0, 2.0]]))
    assert_close(rule.jvp(0)(np.arange(6.0).reshape(2, 3), ans, x, axis=1), np.array([1.5, 4.0]))
    xt = tf.constant(x)
    with tf.GradientTape() as t:
        t.watch(xt)
        y = fn(xt)
    expected = np.zeros_like(x)
    expected[x == fn(x)] = 1.0 / np.sum(x == fn(x))
    assert_close(t.gradient(y, xt).numpy(), expected)


def test_max_rule_keeps_float32():
    x = np.array([1.0, 3.0, 3.0], dtype=np.float32)
    g = lookup(np.max).vjp(0)(np.float32(1.0), np.max(x), x)
    assert g.dtype == np.float32


# --- prod with zeros -------------------------------------------------------------------------

def _products_of_others(x):
    """Reference: for each element, the product of all the other elements (flattened)."""
    flat = x.reshape(-1)
    return np.array([np.prod(np.delete(flat, i)) for i in range(flat.size)]).reshape(x.shape)


@pytest.mark.parametrize("zeros", [[1], [0, 3], [2, 2], []])
def test_prod_with_zeros(zeros):
    rng = np.random.default_rng(2)
    x = values(rng, (2, 3), 0.5, 1.5, signed=True)
    for i in zeros:
        x.flat[i] = 0.0
    rule = lookup(np.prod)
    assert_close(rule.vjp(0)(np.array(1.0), np.prod(x), x), _products_of_others(x))
    t = rng.standard_normal(x.shape)
    assert_close(rule.jvp(0)(t, np.prod(x), x), np.sum(t * _products_of_others(x)))
    # along an axis: the single zero only affects its own row
    ans = np.prod(x, axis=1)
    got = rule.vjp(0)(np.ones(2), ans, x, axis=1)
    want = np.stack([_products_of_others(row) for row in x])
    assert_close(got, want)


def test_prod_second_order_with_a_zero_is_finite():
    x = tf.constant(np.array([0.0, 2.0, 3.0]))
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = np.prod(x)
        g = inner.gradient(y, x)
        s = g[0]
    assert_close(g.numpy(), np.array([6.0, 0.0, 0.0]))
    # d/dx (x1 * x2) = (0, x2, x1): exact for the zero element's own row of the Hessian
    assert_close(outer.gradient(s, x).numpy(), np.array([0.0, 3.0, 2.0]))


def test_cumprod_with_several_zeros_in_a_lane_all_orders():
    """The O(n) rules with zeros: a lane with two zeros, a lane starting with one, a lane without."""
    from tests.runtime.rules.rules_check import tape_hvp
    x = np.array([[1.5, 0.0, -0.7, 0.0, 2.0, 1.1],
                  [0.0, 1.3, 0.8, -1.2, 0.9, 1.4],
                  [0.6, 1.7, -0.9, 1.2, 0.5, 1.3]])
    for axis in (1, None):
        check_vjp(np.cumprod, [x], kwargs={"axis": axis})
        check_jvp(np.cumprod, [x], kwargs={"axis": axis})
    rng = np.random.default_rng(0)
    w, v = rng.standard_normal(x.shape), rng.standard_normal(x.shape)
    phi = lambda a: np.sum(np.cumprod(a, axis=1) * w)  # noqa: E731
    eps = 1e-4
    want = (numeric_grad(phi, x + eps * v) - numeric_grad(phi, x - eps * v)) / (2 * eps)
    assert_close(tape_hvp(np.cumprod, [x], 0, w, v, {"axis": 1}), want, rtol=1e-4, atol=1e-5)


def test_cumprod_with_many_zeros_in_a_lane_uses_the_exact_quadratic_form():
    from runtime.rules import statistics
    from tests.runtime.rules.rules_check import tape_hvp
    x = np.array([0.0, 1.2, 0.0, 0.0, -0.8, 0.0, 1.1, 0.0, 0.0, 1.3])
    assert np.sum(x == 0) > statistics.MAX_ZEROS
    check_vjp(np.cumprod, [x])
    check_jvp(np.cumprod, [x])
    rng = np.random.default_rng(1)
    w, v = rng.standard_normal(x.shape), rng.standard_normal(x.shape)
    phi = lambda a: np.sum(np.cumprod(a) * w)  # noqa: E731
    eps = 1e-4
    want = (numeric_grad(phi, x + eps * v) - numeric_grad(phi, x - eps * v)) / (2 * eps)
    assert_close(tape_hvp(np.cumprod, [x], 0, w, v), want, rtol=1e-4, atol=1e-5)


# --- order statistics: the rules find the used ranks with one argpartition (O(n)) ---------------------

def _rows_with_nans():
    x = np.random.default_rng(8).permutation(np.linspace(-2.0, 2.0, 27)).reshape(3, 9)
    x[1, [2, 5]] = np.nan                   # slices with 0, 2 and 4 NaNs: their ranks differ
    x[2, [0, 3, 4, 8]] = np.nan
    return x


ORDER_CASES = [
    (np.nanquantile, (_rows_with_nans(), [0.1, 0.5, 0.85]), {"axis": 1}),
    (np.nanmedian, (_rows_with_nans(),), {"axis": 1, "keepdims": True}),
    (np.nanpercentile, (_rows_with_nans().T, 30.0), {"axis": 0}),
    (np.quantile, (_rows_with_nans()[0].reshape(3, 3), [[0.2, 0.7], [0.5, 1.0]]), {"axis": 0}),
    (np.median, (np.nan_to_num(_rows_with_nans(), nan=0.25) + np.arange(27.0).reshape(3, 9) / 50,), {}),
    (np.partition, (np.nan_to_num(_rows_with_nans(), nan=0.25) + np.arange(27.0).reshape(3, 9) / 50, [1, 6]),
     {"axis": 1}),
    (np.sort, (_rows_with_nans()[0].reshape(3, 3),), {"axis": 0}),
]


@pytest.mark.parametrize("fn,args,kwargs", ORDER_CASES, ids=[c[0].__name__ for c in ORDER_CASES])
def test_order_statistics_pick_the_right_elements(fn, args, kwargs):
    """NaN-free entries of the slices against finite differences (a NaN entry's gradient is 0)."""
    x = args[0]
    clean = np.where(np.isnan(x), 0.0, x)
    rng = np.random.default_rng(9)
    ans = fn(*args, **kwargs)
    g = rng.standard_normal(np.shape(ans))
    got = lookup(fn).vjp(0)(g, ans, *args, **kwargs)

    def phi(v):
        return np.sum(g * fn(np.where(np.isnan(x), np.nan, v), *args[1:], **kwargs))
    assert_close(np.where(np.isnan(x), 0.0, got), np.where(np.isnan(x), 0.0, numeric_grad(phi, clean)),
                 1e-6, 1e-8, what=f"{fn.__name__} vjp")
    t = np.where(np.isnan(x), 0.0, rng.standard_normal(np.shape(x)))
    tangent = lookup(fn).jvp(0)(t, ans, *args, **kwargs)
    assert_close(tangent, (fn(x + 1e-6 * t, *args[1:], **kwargs) - fn(x - 1e-6 * t, *args[1:], **kwargs)) / 2e-6,
                 1e-6, 1e-8, what=f"{fn.__name__} jvp")
