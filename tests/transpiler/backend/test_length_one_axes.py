"""Variants know which axes have length 1 (``analysis/signature.py``, ``backend/shapes.py``).

Broadcasting only ever stretches an axis of length 1, so a variant generated for arguments
with no such axis may take two axes that meet in a broadcast to be one length and drop every
``unbroadcast``.  That is only right while the key keeps such calls apart: a (3, 1) argument,
a batch of one, must run a variant of its own.  Each test calls one cached function with
shapes in turn (so a wrong reuse of a variant would show) and checks central differences.
"""

import numpy as np
import pytest
from hypothesis import given, strategies as st

from tests.fd import assert_close, numeric_grad
from transpiler import differentiate, grad
from transpiler.analysis import signature


def _code(source):
    return "\n".join(ln for ln in source.splitlines() if not ln.strip().startswith("#"))


def _variant(d, *args):
    return d._t.get(d._wrt, False, floats=d._t.floats(args, {}))


def _fd(f, args, i):
    return numeric_grad(lambda v: f(*args[:i], v, *args[i + 1:]), args[i])


def add_sum(a, b):
    return np.sum(np.tanh(a + b) * a)


def layer(X, W, b):
    h = np.tanh(X @ W + b)
    return np.sum(h * h) / X.shape[0]


def test_the_key_tells_axes_of_length_one_apart():
    a, b = np.ones((3, 4)), np.ones((3, 1))
    assert signature.key_of((a, a)) != signature.key_of((a, b))
    assert signature.key_of((a,)) == signature.key_of((np.ones((5, 7)),))     # one variant per pattern
    spec = signature.specialisation({"a": a, "b": b}, ())
    assert spec == ("a:2f", "b:2f~n1"), spec
    assert signature.split_arrays(spec)["b"] == (2, True, False, (False, True))


def test_full_arguments_need_no_broadcasting_bookkeeping():
    rng = np.random.default_rng(3)
    d = differentiate(layer, wrt=(0, 1, 2))
    many = (rng.normal(size=(5, 3)), rng.normal(size=(3, 2)), rng.normal(size=2))
    one = (rng.normal(size=(1, 3)), rng.normal(size=(3, 1)), rng.normal(size=2))
    code, code_one = _code(_variant(d, *many).source), _code(_variant(d, *one).source)
    assert "unbroadcast" not in code and "expand_reduced" not in code, code
    assert "bb = np.sum(bt2, axis=0)" in code and "np.tanh(X @ W + b)" in code, code
    assert "np.sum(bt2, axis=1, keepdims=True)" in code_one, code_one   # X @ W (1, 1) stretched by b
    for args in (many, one):
        for i, g in enumerate(d.grad(*args)):
            assert_close(g, _fd(layer, args, i), 1e-6, 1e-8, what=f"{[a.shape for a in args]} arg {i}")


def test_stretched_axes_are_summed_in_their_own_variant():
    rng = np.random.default_rng(0)
    d = differentiate(add_sum, wrt=(0, 1))
    full = (rng.normal(size=(3, 4)), rng.normal(size=(3, 4)))
    for i, g in enumerate(d.grad(*full)):
        assert_close(g, _fd(add_sum, full, i), 1e-6, 1e-8, what=f"full, arg {i}")
    for shapes in [((3, 1), (3, 4)), ((3, 4), (1, 4)), ((1, 1), (3, 4)), ((3, 4), (3, 1)), ((1, 4), (3, 1))]:
        args = (rng.normal(size=shapes[0]), rng.normal(size=shapes[1]))
        grads = d.grad(*args)
        for i, g in enumerate(grads):
            assert g.shape == args[i].shape, (shapes, i, g.shape)
            assert_close(g, _fd(add_sum, args, i), 1e-6, 1e-8, what=f"{shapes}, arg {i}")
        d.grad(*full)                       # back and forth: each pattern keeps its own variant


def test_a_batch_of_one_after_a_batch_of_many_through_every_entry_point():
    rng = np.random.default_rng(1)
    many = (rng.normal(size=(5, 3)), rng.normal(size=(3, 2)), rng.normal(size=2))
    one = (rng.normal(size=(1, 3)), rng.normal(size=(3, 1)), rng.normal(size=1))
    odd = (rng.normal(size=(1, 3)), rng.normal(size=(3, 2)), rng.normal(size=(1, 2)))
    d = differentiate(layer, wrt=(0, 1, 2))
    g = grad(layer, wrt=(0, 1, 2))
    for args in (many, one, many, odd, one):
        want = [_fd(layer, args, i) for i in range(3)]
        for got in (d.grad(*args), g(*args)):
            for i in range(3):
                assert got[i].shape == args[i].shape
                assert_close(got[i], want[i], 1e-6, 1e-8, what=f"{[a.shape for a in args]} arg {i}")


def bcast3(a, b, c):
    s = a * b + c
    return np.sum(np.tanh(s) * np.max(a - c, axis=-1, keepdims=True)) + np.sum(np.mean(s * b, axis=0))


_BCAST = differentiate(bcast3, wrt=(0, 1, 2))     # one cache across every example drawn
_SIZES = (2, 3, 4)


@st.composite
def _broadcasting_shapes(draw):
    """Three shapes that broadcast together: each axis counted from the right has one length,
    and each argument has that length or 1 there (or no such axis)."""
    ndim = draw(st.integers(1, 3))
    shapes = []
    for _ in range(3):
        own = draw(st.integers(1, ndim))
        shapes.append(tuple(draw(st.sampled_from((1, _SIZES[k]))) for k in range(ndim - own, ndim)))
    if all(len(s) < 2 for s in shapes):
        shapes[0] = (_SIZES[ndim - 2] if ndim > 1 else 1,) + shapes[0] if ndim > 1 else shapes[0]
    return shapes


@given(_broadcasting_shapes(), st.integers(0, 2 ** 16))
def test_random_broadcasting_shapes_share_one_cache_and_match_finite_differences(shapes, seed):
    rng = np.random.default_rng(seed)
    args = tuple(rng.normal(size=s) for s in shapes)
    grads = _BCAST.grad(*args)
    for i, g in enumerate(grads):
        assert np.shape(g) == args[i].shape, (shapes, i)
        assert_close(g, _fd(bcast3, args, i), 1e-5, 1e-7, what=f"{shapes} arg {i}")


def one_side(a, b, c, flag):
    y = (a + b) if flag else a * 2.0
    return np.sum(np.tanh(y) * c) + np.sum(np.sin(b) * c[:1])


def test_an_operation_that_may_not_run_proves_nothing():
    """``a + b`` in the branch not taken: a (3,) and b (1,)... or b (4,), which only the branch
    would have refused.  The variant for full axes must not take a and b to be one length."""
    rng = np.random.default_rng(5)
    d = differentiate(one_side, wrt=(0, 1, 2))
    for a, b, c, flag in [(rng.normal(size=3), rng.normal(size=3), rng.normal(size=3), True),
                          (rng.normal(size=3), rng.normal(size=4), rng.normal(size=3), False),
                          (rng.normal(size=3), rng.normal(size=3), rng.normal(size=3), False)]:
        args = (a, b, c, flag)
        for i, g in enumerate(d.grad(*args)):
            assert g.shape == args[i].shape
            assert_close(g, _fd(one_side, args, i), 1e-6, 1e-8, what=f"flag={flag} arg {i}")


def test_a_seed_that_is_not_a_real_number_runs_the_general_variant():
    """The variant takes a 0-d output's seed to be a real number (no ``unbroadcast`` after it);
    an array or complex seed (Tangent's ``check_dims=False``) runs the general code instead."""
    rng = np.random.default_rng(7)
    args = (rng.normal(size=(4, 3)), rng.normal(size=(3, 2)), rng.normal(size=2))
    g = grad(layer, wrt=(1,))
    want = _fd(layer, args, 1)
    assert_close(g(*args)[0], want, 1e-6, 1e-8, what="no seed")
    assert_close(g(*args, 2.5)[0], 2.5 * want, 1e-6, 1e-8, what="seed 2.5")
    got = g(*args, np.full(2, 0.5))[0]          # broadcast over h's last axis, as the general code does
    general = grad(layer, wrt=(1,), optimized=False)(*args, np.full(2, 0.5))[0]
    assert_close(got, general, 1e-12, 1e-12, what="array seed")
    assert_close(got, 0.5 * want, 1e-6, 1e-8, what="array seed")
    complex_seed = g(*args, 1.0 + 2.0j)[0]
    assert np.isrealobj(complex_seed), complex_seed.dtype
    assert_close(complex_seed, want, 1e-6, 1e-8, what="complex seed (its real part)")
    with pytest.raises(ValueError):               # the general code cannot broadcast it to h: nor may the variant
        g(*args, np.ones((1, 4, 2)))


def product_sum(a, b):
    return np.sum(a * b)


def test_the_operation_that_proved_two_lengths_equal_still_runs():
    """``da = bout * b`` holds because ``a * b`` ran and numpy checked a and b have one length;
    the product's value is not needed for the gradient, but it must still run: otherwise
    a (3,) and a (4,) array would get a (4,) "gradient" for a instead of numpy's error."""
    d = differentiate(product_sum, wrt=0)
    a, b = np.linspace(0.1, 0.3, 3), np.linspace(-1.0, 1.0, 3)
    assert_close(d.grad(a, b), b, 1e-12, 1e-12, what="d/da sum(a * b)")
    code = _code(_variant(d, a, b).source)
    assert "unbroadcast" not in code and "a * b" in code, code
    with pytest.raises(ValueError):
        d.grad(a, np.ones(4))


def sum_twice(x, a):
    v = np.sin(a) * x
    return np.sum(v) + np.sum(v)


def test_two_expansions_meeting_keep_one():
    """``expand_reduced(g, v) + expand_reduced(g, v)``: each may go against the other, not
    both, or the sum stays 0-d (found by test_random_loops with a known 0-d seed)."""
    d = differentiate(sum_twice, wrt=(0, 1))
    args = (np.array([0.3, -0.5, 0.8]), 0.7)
    gx, ga = d.grad(*args)
    assert np.shape(gx) == (3,)
    assert_close(gx, _fd(sum_twice, args, 0), 1e-6, 1e-8, what="d/dx")
    assert_close(ga, numeric_grad(lambda v: sum_twice(args[0], float(v)), args[1]), 1e-6, 1e-8, what="d/da")
