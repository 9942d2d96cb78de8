"""Shape, indexing, gather, cast and dot rules (runtime/rules/shape.py)."""

import operator

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import runtime as tf
from runtime.rules import lookup
from runtime.rules.shape import cast
from tests.fd import assert_close, numeric_jvp, numeric_vjp
from tests.runtime.rules.rules_check import check_hvp, check_jvp, check_vjp, seeds, shapes, values


def _square_then(fn):
    """fn applied to x * x: a nonlinear composite whose second derivative runs fn's rule on tensors."""
    def f(x, *rest, **kw):
        return fn(x * x, *rest, **kw)
    f.__name__ = f"{fn.__name__}_of_square"
    return f


def _check_all(fn, args, kwargs=None, rng=None, hvp=True):
    check_vjp(fn, args, 0, kwargs, rng)
    check_jvp(fn, args, 0, kwargs, rng)
    if hvp:
        check_hvp(fn, args, 0, kwargs, rng)
        check_hvp(_square_then(fn), args, 0, kwargs, rng)


@given(shape=shapes(), seed=seeds)
def test_reshape_ravel_squeeze_expand_dims(shape, seed):
    rng = np.random.default_rng(seed)
    x = values(rng, shape)
    n = int(np.prod(shape))
    _check_all(np.reshape, [x, (n,)], rng=rng)
    _check_all(np.reshape, [x], {"shape": (-1, 1)}, rng=rng)
    _check_all(np.ravel, [x], rng=rng)
    _check_all(np.squeeze, [x], rng=rng)
    _check_all(np.expand_dims, [x, 0], rng=rng)
    _check_all(np.expand_dims, [x], {"axis": -1}, rng=rng)
    _check_all(np.flip, [x], rng=rng)


@given(shape=shapes(min_dims=1), seed=seeds, data=st.data())
def test_transpose_swapaxes_moveaxis_flip(shape, seed, data):
    rng = np.random.default_rng(seed)
    x = values(rng, shape)
    nd = len(shape)
    perm = tuple(data.draw(st.permutations(range(nd))))
    neg = tuple(p - nd for p in perm)
    a1, a2 = data.draw(st.integers(-nd, nd - 1)), data.draw(st.integers(-nd, nd - 1))
    _check_all(np.transpose, [x], rng=rng)
    _check_all(np.transpose, [x, perm], rng=rng)
    _check_all(np.transpose, [x], {"axes": neg}, rng=rng, hvp=False)
    _check_all(np.swapaxes, [x, a1, a2], rng=rng)
    _check_all(np.moveaxis, [x, a1, a2], rng=rng)
    _check_all(np.flip, [x, a1], rng=rng, hvp=False)


@given(shape=shapes(max_dims=2), seed=seeds, data=st.data())
def test_broadcast_to(shape, seed, data):
    rng = np.random.default_rng(seed)
    small = tuple(data.draw(st.sampled_from([1, n])) for n in shape)
    target = (2,) + tuple(shape)
    _check_all(np.broadcast_to, [values(rng, small), target], rng=rng)


# --- concatenate / stack: sequence arguments -----------------------------------------------

def _check_sequence(fn, arrays, rng, **kw):
    rule = lookup(fn)
    ans = fn(arrays, **kw)
    g = rng.standard_normal(ans.shape)
    got = rule.vjp(0)(g, ans, arrays, **kw)
    assert isinstance(got, tuple) and len(got) == len(arrays)
    for i, a in enumerate(arrays):
        def f(ai, i=i):
            new = list(arrays)
            new[i] = ai
            return fn(new, **kw)
        assert_close(got[i], numeric_vjp(f, [a], 0, g), what=f"{fn.__name__} vjp piece {i}")
    ts = [rng.standard_normal(a.shape) for a in arrays]
    want = numeric_jvp(lambda *xs: fn(list(xs), **kw), arrays, ts)
    assert_close(rule.jvp(0)(ts, ans, arrays, **kw), want, what=f"{fn.__name__} jvp")


@given(shape=shapes(min_dims=1, max_dims=3), seed=seeds, data=st.data())
def test_concatenate(shape, seed, data):
    rng = np.random.default_rng(seed)
    nd = len(shape)
    axis = data.draw(st.integers(-nd, nd - 1))
    sizes = data.draw(st.lists(st.integers(1, 3), min_size=1, max_size=3))
    arrays = []
    for n in sizes:
        s = list(shape)
        s[axis] = n
        arrays.append(values(rng, tuple(s)))
    _check_sequence(np.concatenate, arrays, rng, axis=axis)
    _check_sequence(np.concatenate, arrays, rng, axis=None)


@given(shape=shapes(max_dims=2), seed=seeds, n=st.integers(1, 3), data=st.data())
def test_stack(shape, seed, n, data):
    rng = np.random.default_rng(seed)
    axis = data.draw(st.integers(-len(shape) - 1, len(shape)))
    _check_sequence(np.stack, [values(rng, shape) for _ in range(n)], rng, axis=axis)


def test_concatenate_and_stack_on_the_tape_second_order():
    a, b = tf.constant(np.array([1.0, 2.0])), tf.constant(np.array([3.0]))
    with tf.GradientTape() as outer:
        outer.watch(a)
        with tf.GradientTape() as inner:
            inner.watch([a, b])
            y = np.sum(np.concatenate([a * a, b]) ** 2) + np.sum(np.stack([a, a * b]) ** 2)
        ga, gb = inner.gradient(y, [a, b])
        s = np.sum(ga)
    # y = sum a^4 + b^2 + sum a^2 + b^2 sum a^2
    assert_close(ga.numpy(), 4 * np.array([1.0, 8.0]) + 2 * np.array([1.0, 2.0]) * (1 + 9.0))
    assert_close(gb.numpy(), np.array([2 * 3.0 + 2 * 3.0 * 5.0]))
    assert_close(outer.gradient(s, a).numpy(), 12 * np.array([1.0, 4.0]) + 2 * (1 + 9.0))


# --- indexing and gather ---------------------------------------------------------------------

INDICES = [
    lambda s: 0,
    lambda s: -1,
    lambda s: slice(None, None, -1),
    lambda s: (slice(1, None), Ellipsis),
    lambda s: (None, Ellipsis, 0) if len(s) > 1 else None,
    lambda s: np.array([0, 0, s[0] - 1]),                  # duplicates accumulate
    lambda s: np.arange(s[0]) % 2 == 0,                    # boolean mask
    lambda s: (np.array([0, -1, 0]), Ellipsis),
]


@pytest.mark.parametrize("k", range(len(INDICES)))
@given(shape=shapes(min_dims=1, max_dims=3), seed=seeds)
def test_getitem(k, shape, seed):
    rng = np.random.default_rng(seed)
    x = values(rng, shape)
    idx = INDICES[k](shape)
    _check_all(operator.getitem, [x, idx], rng=rng)


@given(shape=shapes(min_dims=1, max_dims=3), seed=seeds, data=st.data())
def test_take(shape, seed, data):
    rng = np.random.default_rng(seed)
    x = values(rng, shape)
    nd = len(shape)
    axis = data.draw(st.integers(-nd, nd - 1))
    idx = rng.integers(-shape[axis], shape[axis], size=data.draw(shapes(max_dims=2)))
    _check_all(np.take, [x, idx], {"axis": axis}, rng=rng)
    flat_idx = rng.integers(0, x.size, size=4)
    _check_all(np.take, [x, flat_idx], rng=rng)


def test_gather_duplicates_accumulate_on_the_tape():
    x = tf.constant(np.array([1.0, 2.0, 3.0]))
    with tf.GradientTape() as t:
        t.watch(x)
        y = np.sum(np.take(x, np.array([0, 0, 2, 0]))) + np.sum(x[np.array([2, 2])])
    assert_close(t.gradient(y, x).numpy(), np.array([3.0, 0.0, 3.0]))


# --- cast ------------------------------------------------------------------------------------

def test_cast_values_and_rules():
    x = np.array([1.7, -2.5])
    assert cast(x, np.int32).dtype == np.int32 and list(cast(x, "int32")) == [1, -2]
    rule = lookup(cast)
    y = cast(x, np.float32)
    g = rule.vjp(0)(np.ones(2, np.float32), y, x, np.float32)
    assert g.dtype == np.float64
    assert_close(g, np.ones(2))
    assert rule.jvp(0)(np.ones(2), y, x, np.float32).dtype == np.float32
    assert rule.vjp(0)(np.ones(2), cast(x, np.int64), x, np.int64) is None


def test_cast_on_the_tape():
    x = tf.constant(np.array([1.5, 2.0]))
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        f32 = cast(x, tf.float32)
        y = np.sum(f32 * f32)
        z = np.sum(cast(x, np.int32))
    g = t.gradient(y, x)
    assert g.dtype == tf.float64
    assert_close(g.numpy(), 2 * np.array([1.5, 2.0]))
    assert t.gradient(z, x) is None


# --- dot and outer ---------------------------------------------------------------------------

dot_shapes = st.sampled_from([
    ((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((2, 3), (3, 4)), ((), (2, 3)), ((2, 3), ()),
])


@given(shp=dot_shapes, seed=seeds)
def test_dot(shp, seed):
    rng = np.random.default_rng(seed)
    args = [values(rng, shp[0]), values(rng, shp[1])]
    for i in (0, 1):
        check_vjp(np.dot, args, i, rng=rng)
        check_jvp(np.dot, args, i, rng=rng)
        check_hvp(lambda a, b: np.dot(a * a, b * b), args, i, rng=rng)


@given(shp=st.tuples(shapes(max_dims=2, max_side=3), shapes(max_dims=2, max_side=3)), seed=seeds)
def test_outer(shp, seed):
    rng = np.random.default_rng(seed)
    args = [values(rng, shp[0]), values(rng, shp[1])]
    for i in (0, 1):
        check_vjp(np.outer, args, i, rng=rng)
        check_jvp(np.outer, args, i, rng=rng)
        check_hvp(lambda a, b: np.outer(a * a, b * b), args, i, rng=rng)
