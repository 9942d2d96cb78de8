"""Rules for x[idx] = v (setitem), np.copy, lst.append (append_at), builtins.sum, and the
sparse cotangents of containers (runtime/rules/containers.py)."""

import builtins

import numpy as np
import pytest
from hypothesis import given

from runtime.rules import lookup
from runtime.rules.containers import Grads, append_at, restructure, setitem, slot, zero_grad
from runtime.rules.support import scatter_add
from tests.fd import assert_close, numeric_grad
from tests.runtime.rules.rules_check import check_hvp, check_jvp, check_vjp, seeds, shapes, values

INDICES = [
    lambda s: 0,
    lambda s: -1,
    lambda s: slice(1, None),
    lambda s: slice(None, None, -2),
    lambda s: (Ellipsis, 0),
    lambda s: np.array([s[0] - 1, 0]) if s[0] > 1 else np.array([0]),   # distinct fancy indices
    lambda s: np.arange(s[0]) % 2 == 0,                                  # boolean mask
]


def _square_then(fn):
    def f(x, *rest):
        return fn(x * x, *rest)
    f.__name__ = f"{fn.__name__}_of_square"
    return f


@pytest.mark.parametrize("k", range(len(INDICES)))
@given(shape=shapes(min_dims=1, max_dims=3), seed=seeds)
def test_setitem(k, shape, seed):
    rng = np.random.default_rng(seed)
    x = values(rng, shape)
    idx = INDICES[k](shape)
    v = values(rng, np.shape(x[idx]))
    for argnum in (0, 2):
        check_vjp(setitem, [x, idx, v], argnum, rng=rng)
        check_jvp(setitem, [x, idx, v], argnum, rng=rng)
    check_hvp(_square_then(setitem), [x, idx, v], 0, rng=rng)


@given(shape=shapes(min_dims=2, max_dims=3), seed=seeds)
def test_setitem_broadcasts_the_value(shape, seed):
    rng = np.random.default_rng(seed)
    x = values(rng, shape)
    v = values(rng, shape[-1:])           # one row written into every x[i, ..., :]
    check_vjp(setitem, [x, (slice(None),) * (len(shape) - 1), v], 2, rng=rng)
    check_vjp(setitem, [x, 0, np.float64(1.5)], 2, rng=rng)


def test_setitem_leaves_its_input_alone_and_refuses_repeats():
    x = np.arange(4.0)
    y = setitem(x, 1, 9.0)
    assert x[1] == 1.0 and y[1] == 9.0
    with pytest.raises(ValueError, match="repeated index"):
        setitem(x, np.array([0, 0]), np.array([1.0, 2.0]))


def test_setitem_on_containers_copies():
    d = {"a": 1.0}
    e = setitem(d, "b", 2.0)
    assert d == {"a": 1.0} and e == {"a": 1.0, "b": 2.0}
    lst = [1.0, 2.0]
    assert setitem(lst, 0, 5.0) == [5.0, 2.0] and lst == [1.0, 2.0]
    g = Grads({"a": np.ones(2), "b": np.ones(2)})
    assert set(setitem(g, "a", 0.0)) == {"b"} and set(g) == {"a", "b"}


@given(shape=shapes(), seed=seeds)
def test_copy(shape, seed):
    rng = np.random.default_rng(seed)
    x = values(rng, shape)
    check_vjp(np.copy, [x], rng=rng)
    check_jvp(np.copy, [x], rng=rng)


@given(shape=shapes(min_dims=1), seed=seeds)
def test_builtin_sum_over_an_array(shape, seed):
    rng = np.random.default_rng(seed)
    x = values(rng, shape)
    check_vjp(builtins.sum, [x], rng=rng)
    check_jvp(builtins.sum, [x], rng=rng)


def test_builtin_sum_over_a_list_of_broadcasting_items():
    rng = np.random.default_rng(0)
    items = [rng.normal(size=(2, 3)), rng.normal(size=3), np.float64(0.5)]
    rule = lookup(builtins.sum)
    g = rng.normal(size=(2, 3))
    got = rule.vjp(0)(g, sum(items), items)
    for i, item in enumerate(items):
        def f(v, i=i):
            new = list(items)
            new[i] = v
            return np.sum(sum(new) * g)
        assert_close(got[i], numeric_grad(f, item))
    tangents = [rng.normal(size=np.shape(a)) for a in items]
    assert_close(rule.jvp(0)(tangents, sum(items), items), sum(tangents))


def test_append_at_rules():
    rng = np.random.default_rng(1)
    lst, v = [rng.normal(size=2)], rng.normal(size=2)
    ans = append_at(lst, 1, v)
    assert len(lst) == 1 and len(ans) == 2 and ans[1] is v
    rule = lookup(append_at)
    g = Grads({0: np.ones(2), 1: np.full(2, 3.0)})
    assert_close(rule.vjp(2)(g, ans, lst, 1, v), np.full(2, 3.0))
    assert_close(rule.vjp(2)(Grads({0: np.ones(2)}), ans, lst, 1, v), np.zeros(2))   # nothing flowed
    assert rule.vjp(0)(g, ans, lst, 1, v) is g
    assert_close(rule.jvp(2)(np.ones(2), ans, lst, 1, v)[1], np.ones(2))


def test_grads_add_slot_by_slot_with_any_representation():
    a = Grads({0: np.ones(2)})
    b = a + (np.ones(2), np.full(2, 2.0))          # a dense tuple (from np.stack's adjoint)
    assert_close(b[0], 2 * np.ones(2))
    assert_close(b[1], np.full(2, 2.0))
    assert np.zeros((2, 2)) + a == a               # zeros_like of a list of rows: a zero
    assert 0.0 + a == a and a + None == a
    dense = np.array([[1.0, 1.0], [0.0, 5.0]]) + a  # a dense array of rows
    assert_close(dense[1], np.array([0.0, 5.0]))
    assert isinstance(zero_grad({"a": 1.0}), Grads) and zero_grad(np.ones(2)).shape == (2,)


def test_scatter_into_a_container_and_restructure():
    params = {"w": np.ones((2, 2)), "b": np.ones(2)}
    g = scatter_add(np.full(2, 3.0), params, "b")
    assert isinstance(g, Grads) and set(g) == {"b"}
    out = restructure(g, params)
    assert list(out) == ["w", "b"] and np.array_equal(out["w"], np.zeros((2, 2)))
    assert_close(scatter_add(np.ones(2), [np.ones(2), np.ones(2)], -1)[1], np.ones(2))
    assert restructure(Grads({1: 2.0}), (1.0, 1.0)) == (0.0, 2.0)
    assert_close(slot(np.arange(3.0), 2, 0.0), 2.0)
    got = scatter_add(np.full(1, 5.0), [1.0, 2.0], slice(1, None))    # l[1:] of a list a callee was given
    assert dict(got) == {1: 5.0} and got.length == 2


@given(shape=shapes(min_dims=1, max_dims=3), seed=seeds)
def test_array_and_asarray(shape, seed):
    rng = np.random.default_rng(seed)
    x = values(rng, shape)
    for fn in (np.array, np.asarray):
        check_vjp(fn, [x], rng=rng)
        check_jvp(fn, [x], rng=rng)
        rows = [x[i] for i in range(shape[0])]           # a list of rows: one cotangent per row
        g = rng.normal(size=shape)
        got = lookup(fn).vjp(0)(g, fn(rows), rows)
        # an item_array (adds row by row under `+`, where a tuple would concatenate)
        assert isinstance(got, np.ndarray) and got.dtype == object and len(got) == shape[0]
        for i in range(shape[0]):
            assert_close(got[i], g[i])


def test_list_arithmetic_and_truncating_writes_are_refused():
    with pytest.raises(TypeError, match="concatenation"):
        Grads({0: 1.0}) * 2
    from runtime.rules.support import unbroadcast
    with pytest.raises(TypeError, match="concatenation"):
        unbroadcast((np.ones(2), np.ones(2)), [np.ones(2)])
    with pytest.raises(TypeError, match="float dtype"):
        setitem(np.zeros(3, dtype=int), 0, 1.5)
    assert setitem(np.zeros(3, dtype=int), 0, 2)[0] == 2


def test_items_like_rules_are_its_transposes():
    """items_like(h, likes) reads a tuple's cotangent item by item (eigh_vjp, svd_vjp, qr_vjp call it);
    its rules let the transpiler differentiate those VJPs again.  Linear in h: the JVP is itself,
    and the VJP its transpose, for a dense item_array, a sparse Grads and a zero alike."""
    from runtime.rules.adjoint_helpers import items_like_jvp, items_like_vjp
    from runtime.rules.support import item_array, items_like
    from tests.transpiler.frontend.containers.test_containers_higher import _dot
    rng = np.random.default_rng(5)
    likes = (rng.normal(size=(3,)), rng.normal(size=(2, 3)))
    k = [rng.normal(size=(3,)), rng.normal(size=(2, 3))]
    for h in (item_array([rng.normal(size=(3,)), rng.normal(size=(2, 3))]), Grads({1: rng.normal(size=(2, 3))}), 0.0):
        if not isinstance(h, float):
            assert_close(_dot(items_like(h, likes), k), _dot(h, items_like_vjp(k, None, h, likes)), 1e-12, 1e-12)
        for got, want in zip(items_like_jvp(h, None, h, likes), items_like(h, likes)):
            assert_close(got, want, 1e-12, 1e-12)
    assert lookup(items_like).vjp(1) is None        # likes lends its shapes only
