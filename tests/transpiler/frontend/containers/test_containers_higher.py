"""Where second-order derivatives meet containers: generated gradients that build lists and
dicts (append_at, setitem, Grads, spread, rows_like, keys_of) are transformed again.

The corpus-wide checks are test_higher.py::test_second_derivatives and
test_structures.py::test_second_order; these pin down each rule they depend on.
"""

import numpy as np
import pytest

from runtime.rules.containers import (Grads, keys_of, rows_like, rows_like_vjp, setitem, spread,
                                      spread_vjp_g, total, total_vjp_t)
from runtime.rules.registry import lookup
from runtime.rules.support import _slots, item_array, items_like, scatter_add, unbroadcast
from tests.fd import assert_close, numeric_grad
from transpiler import differentiate, grad
from transpiler.higher import hvp

rng = np.random.default_rng(11)


def _dot(a, b):
    """<a, b> for arrays, tuples, item_arrays and Grads alike (slot by slot)."""
    if isinstance(a, (np.ndarray, float)) and not (isinstance(a, np.ndarray) and a.dtype == object):
        return float(np.vdot(a, b))
    pb = dict(_slots(b))
    return sum(float(np.vdot(v, pb[k])) for k, v in _slots(a) if k in pb)


# --- the rules for the helpers generated gradients call are each other's transposes ----------

ITEMS = [rng.normal(size=(3,)), rng.normal(size=()), rng.normal(size=(1, 3))]


def test_spread_vjp_is_its_transpose():
    g = rng.normal(size=(1, 3))
    h = item_array([rng.normal(size=np.shape(a)) for a in ITEMS])
    assert_close(_dot(spread(g, ITEMS), h), _dot(g, spread_vjp_g(h, None, g, ITEMS)), 1e-12, 1e-12)


def test_total_vjp_is_its_transpose():
    t = tuple(rng.normal(size=np.shape(a)) for a in ITEMS)
    h = rng.normal(size=(1, 3))
    assert_close(_dot(total(t, ITEMS), h), _dot(t, total_vjp_t(h, None, t, ITEMS)), 1e-12, 1e-12)


def test_rows_like_vjp_is_its_transpose():
    obj = [rng.normal(size=(2,)), rng.normal(size=(2,))]
    g = rng.normal(size=(2, 2))
    h = Grads({1: rng.normal(size=(2,))})           # sparse: slot 0 got nothing
    assert_close(_dot(rows_like(g, obj), h), _dot(g, rows_like_vjp(h, None, g, obj)), 1e-12, 1e-12)


def test_helpers_have_rules_both_ways():
    """Forward mode decides activity from the same rules as reverse mode: a helper without a
    VJP would drop its tangent silently (the hvp of list_append_sum was half its value)."""
    import runtime.rules.containers as c
    for fn in (c.spread, c.total, c.rows_like, c.slot, c.spread_vjp_g, c.total_vjp_t, c.rows_like_vjp):
        rule = lookup(fn)
        assert rule.vjp(0) is not None and rule.jvp(0) is not None, fn.__name__
    assert not lookup(keys_of).differentiable


# --- cotangents of lists and tuples --------------------------------------------------------

def test_grads_of_a_list_read_negative_slots():
    """t[-1] of a list scatters into slot len-1; reading the cotangent back at -1 must find it
    (tuple_of_generator's second derivative lost that term)."""
    lst = [np.ones(2), np.ones(2), np.ones(2)]
    g = scatter_add(np.full(2, 3.0), lst, -1)
    assert list(g) == [2] and g.length == 3
    last = np.full(2, 3.0)
    assert_close(g[-1], last, 0, 0)
    assert_close((g + scatter_add(np.ones(2), lst, 0))[-1], last, 0, 0)
    assert_close((Grads() + g)[-1], last, 0, 0)                    # a zero cotangent plus g
    assert_close(setitem(g, 0, np.ones(2))[-1], last, 0, 0)
    assert_close(scatter_add(np.ones(2), g, 0)[-3], np.ones(2), 0, 0)   # a cotangent of a cotangent


def test_cotangents_of_cotangents_add_without_broadcasting():
    a, b = Grads({0: np.ones(2)}), Grads({1: np.ones(3)})
    assert set(unbroadcast(a + b, a)) == {0, 1} and set(unbroadcast(a + b, b)) == {0, 1}
    with pytest.raises(TypeError, match="concatenation"):
        unbroadcast([np.ones(2)], np.ones(2))     # a user's list + list is still refused


def test_items_like_fills_missing_slots_with_zeros():
    likes = (np.ones(2), np.ones(3))
    for h in (Grads({1: np.full(3, 2.0)}), item_array([np.zeros(2), np.full(3, 2.0)]), 0.0):
        parts = items_like(h, likes)
        assert [p.shape for p in parts] == [(2,), (3,)]
        assert_close(parts[1], np.full(3, 2.0) if not isinstance(h, float) else np.zeros(3), 0, 0)


def test_scatter_add_into_an_item_array():
    """r = scatter_add(g, (x, y), 0) is an item_array; differentiated again, r[1] scatters into it."""
    r = item_array([np.zeros(2), np.zeros(3)])
    out = scatter_add(np.ones(3), r, 1)
    assert out.dtype == object and out[0].shape == (2,)
    assert_close(out[1], np.ones(3), 0, 0)


# --- whole functions ------------------------------------------------------------------------

def for_target_after_zero_trips(x, n):
    j = 2.0
    for j in range(n):
        x = x * 1.5
    return np.sum(x * j)


@pytest.mark.parametrize("n", [0, 3])
def test_for_target_keeps_its_value_when_the_loop_does_not_run(n):
    """Python leaves a for target at its previous value when the loop runs zero times (the
    generated gradient of a nested loop over range(i) needs exactly that when read again)."""
    x = np.arange(1.0, 4.0)
    want = numeric_grad(lambda v: for_target_after_zero_trips(v, n), x)
    assert_close(grad(for_target_after_zero_trips)(x, n), want, 1e-6, 1e-7)
    t = np.ones(3)
    _, tangent = differentiate(for_target_after_zero_trips, mode="forward").jvp((x, n), (t,))
    assert_close(tangent, np.vdot(want, t), 1e-6, 1e-7)


def target_reused(x, n):
    for i in range(n):
        x = x * 0.9 + np.sin(x)
    for i in range(n + 1):
        x = x * 1.5
    return np.sum(x)


def _normalized(fn):
    """The normalized (single-assignment) form of ``fn`` as a function: every copy kept."""
    import ast
    from transpiler.api import transform
    gen = transform(fn)
    namespace = dict(fn.__globals__, **gen.ctx.injected)
    exec(compile(ast.unparse(gen.stages["normalized"]), "<normalized>", "exec"), namespace)
    return namespace[gen.stages["normalized"].name]


@pytest.mark.parametrize("n", [0, 2])
def test_a_target_unbound_after_zero_trips_is_not_read(n):
    """The second loop copies no value from the first loop's target, which zero trips leave
    unbound (the normalized code, before the optimizer drops dead copies, would raise)."""
    x = np.array([0.4, -0.3])
    assert_close(_normalized(target_reused)(x, n), target_reused(x, n), 0, 0)
    assert_close(_normalized(for_target_after_zero_trips)(x, n), for_target_after_zero_trips(x, n), 0, 0)
    assert_close(grad(target_reused)(x, n), numeric_grad(lambda v: target_reused(v, n), x), 1e-6, 1e-7)


def sum_then_last(x):
    terms = []
    for i in range(3):
        terms.append(x * (i + 1.0))
    return np.sum(sum(terms) * terms[-1])


def dict_of_items(x):
    d = {"a": x, "b": x * x}
    s = 0.0
    for k, v in d.items():
        s = s + np.sum(np.sin(v)) * len(k)
    return s


def list_without_loop(x):
    terms = [x, x * 2.0, np.sin(x)]
    return np.sum(sum(terms) * terms[-1])


@pytest.mark.parametrize("fn", [sum_then_last, dict_of_items, list_without_loop])
def test_second_derivatives(fn):
    x = rng.normal(size=4)
    v = rng.normal(size=4)
    g = grad(fn)
    assert_close(hvp(fn, x, v), (g(x + 1e-6 * v) - g(x - 1e-6 * v)) / 2e-6, 1e-5, 1e-6)
    assert_close(grad(g)(x), hvp(fn, x, np.ones(4)), 1e-9, 1e-10)


def test_third_derivative_through_spread_and_negative_index():
    """grad(grad(grad)) meets spread_vjp_g's own rule and the Grads of a cotangent read at -1
    (it was silently wrong while scatter_add kept -1 as a key of a list's cotangent)."""
    gg = grad(grad(list_without_loop))
    x = rng.normal(size=4)
    assert_close(grad(gg)(x), numeric_grad(lambda y: np.sum(gg(y)), x), 1e-4, 1e-5)


def test_dict_keys_are_read_through_keys_of():
    """The keys of ``for k, v in d.items()`` carry no derivative, in the gradient's own code too."""
    source = grad(dict_of_items).source
    assert "keys_of(" in source and "list(" not in source


# --- x[i:j:k] = v (assign_slice_): slice_part and slice_back are each other's transposes ------

def test_slice_parts_are_transposes():
    """<slice_part(g), h> == <g, slice_back(h)> for lists (grown, shrunk, extended slices, the
    items of an array) and arrays: the rules second derivatives of slice writes read."""
    from runtime.rules.containers import assign_slice_, slice_back, slice_part
    x = [rng.normal(size=2) for _ in range(5)]
    for bounds, v in [((1, 3, None), [rng.normal(size=2) for _ in range(3)]),     # grows by one
                      ((None, -1, None), [rng.normal(size=2)]),                   # shrinks by three
                      ((4, 1, None), [rng.normal(size=2)]),                       # an insertion at 4
                      ((None, None, -2), [rng.normal(size=2) for _ in range(3)]),  # extended: in place
                      ((1, None, None), rng.normal(size=(2, 2)))]:                # an array's rows
        total = len(assign_slice_(x, *bounds, v))
        g = Grads({i: rng.normal(size=2) for i in range(total) if i != 1})
        g.length = total
        for right, like in ((False, x), (True, v)):
            h = rng.normal(size=np.shape(v)) if right and isinstance(v, np.ndarray) else \
                item_array([rng.normal(size=2) for _ in like])
            assert_close(_dot(slice_part(g, x, *bounds, v, right), h),
                         _dot(g, slice_back(h, x, *bounds, v, right)), 1e-12, 1e-12)
    a, v = rng.normal(size=(5, 2)), rng.normal(size=(2,))
    g = rng.normal(size=(5, 2))
    for right, h in ((False, rng.normal(size=(5, 2))), (True, rng.normal(size=(2,)))):
        assert_close(_dot(slice_part(g, a, 1, 3, None, v, right), h),
                     _dot(g, slice_back(h, a, 1, 3, None, v, right)), 1e-12, 1e-12)
