"""Indexed reads in loops: the adjoint adds into one gradient array in place (``add_at``) when no
other name can see it, so each read costs O(1); the values are those of ``bx + scatter_add(...)``.

Gradients are checked against central differences and against analytic derivatives.
"""

import numpy as np
import pytest

import runtime as tf
from runtime.rules.inplace import add_at
from runtime.rules.support import scatter_add
from tests.fd import assert_close, numeric_grad
from tests.transpiler.checks import check
from transpiler import differentiate, grad, hvp


def reads(x):
    s = 0.0
    for i in range(len(x)):
        s = s + (np.sin(x[i]) * x[i]) ** 2
    return s


def reads_hessian_diagonal(x):
    """d^2/dx^2 of (sin(x) x)^2, elementwise."""
    u, du = np.sin(x) * x, np.cos(x) * x + np.sin(x)
    return 2 * (du * du + u * (2 * np.cos(x) - x * np.sin(x)))


X = np.array([0.3, -1.1, 0.8, 2.0, -0.4])


def test_indexed_reads_match_finite_differences():
    d = differentiate(reads)
    assert "add_at(" in d.source and "scatter_add(" not in d.source
    assert_close(d.grad(X), numeric_grad(reads, X), 1e-6, 1e-8)
    check(reads, X)


def test_second_order_through_add_at():
    v = np.array([1.0, -2.0, 0.5, 0.3, 1.5])
    assert_close(hvp(reads)(X, v), reads_hessian_diagonal(X) * v, 1e-8, 1e-10)
    assert_close(grad(grad(reads))(X), reads_hessian_diagonal(X), 1e-8, 1e-10)


def two_reads_and_a_window(x, w):
    s = 0.0
    for i in range(1, len(x)):
        s = s + x[i] * x[i - 1] * w + np.tanh(x[i])
    return s + np.sum(x[1:3] * x[0])


def test_overlapping_reads_and_slices():
    check(two_reads_and_a_window, X, 0.7, wrt=(0, 1))
    d = differentiate(two_reads_and_a_window, wrt=(0, 1))
    gx, gw = d.grad(X, 0.7)
    assert_close(gx, numeric_grad(lambda x: two_reads_and_a_window(x, 0.7), X), 1e-6, 1e-8)


def test_add_at_writes_only_into_a_private_array():
    x = np.zeros(4)
    a = np.zeros(4)
    kept = a                                    # a second name: a must not change
    out = add_at(a, 1.5, x, 2)
    assert out is not a and a[2] == 0.0 and kept[2] == 0.0 and out[2] == 1.5

    def private():
        b = np.zeros(4)
        first = id(b)
        b = add_at(b, 1.5, x, 2)
        b = add_at(b, 1.0, x, 2)
        return b, id(b) == first
    b, same = private()
    assert same and b[2] == 2.5                 # in place: the same array both times


def test_add_at_values_equal_the_sum_it_replaces():
    x = np.zeros((3, 2))
    cases = [(2.0, (1, 0)), (np.array([1.0, 2.0]), 1), (np.ones((2, 2)), slice(0, 2)),
             (np.array([1.0, 2.0, 3.0]), (np.array([0, 0, 2]), np.array([1, 1, 0])))]   # repeats add
    for g, idx in cases:
        def fresh(g=g, idx=idx):
            b = np.full((3, 2), 0.25)
            b = add_at(b, g, x, idx)
            return b
        want = np.full((3, 2), 0.25) + scatter_add(g, x, idx)
        np.testing.assert_array_equal(fresh(), want)


def test_add_at_leaves_views_and_other_dtypes_alone():
    x = np.zeros(3)
    base = np.zeros((2, 3))

    def on_view():
        v = base[0]
        v = add_at(v, 1.0, x, 1)
        return v
    assert on_view()[1] == 1.0 and base[0, 1] == 0.0          # a view: its base is not written

    def float32_out():
        b = np.zeros(3, dtype=np.float32)
        b = add_at(b, np.float64(1.0), x.astype(np.float32), 0)
        return b
    assert float32_out().dtype == np.float64                   # as float32 + float64 gives


def test_a_seed_the_user_passes_is_not_written():
    def window(x):
        y = np.zeros(3)
        for i in range(3):
            y = y + x[i] * np.eye(3)[i]
        return y
    seed = np.array([1.0, 2.0, 3.0])
    g = grad(window)(X[:3], seed)
    assert_close(g, seed, 1e-12, 1e-12)
    np.testing.assert_array_equal(seed, [1.0, 2.0, 3.0])


@differentiate
def tape_reads(x):
    s = 0.0
    for i in range(3):
        s = s + x[i] * x[i] * x[i]
    return s


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_through_the_tape(dtype):
    x = tf.constant(X[:3].astype(dtype))
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tape_reads(x)
        g = inner.gradient(y, x)
    h = outer.gradient(g, x)
    assert_close(g.numpy(), 3 * X[:3] ** 2, 1e-5, 1e-6)
    assert_close(h.numpy(), 6 * X[:3], 1e-5, 1e-6)


def passes_x_through(x):
    s = 0.0
    for i in range(3):
        s = s + x[i] * x[i]
    return x, s


def test_a_seed_flowing_into_the_accumulated_gradient_is_not_written():
    seed = np.array([1.0, 2.0, 3.0])
    g = grad(passes_x_through)(X[:3], (seed, 0.5))
    assert_close(g, seed + 0.5 * 2 * X[:3], 1e-12, 1e-12)
    np.testing.assert_array_equal(seed, [1.0, 2.0, 3.0])


# --- writes: y[i] = ... in a loop writes one array in place -----------------------------------

def write_loop(x):
    y = np.zeros_like(x)
    for i in range(len(x)):
        y[i] = x[i] * x[i]
    return np.sum(y * x)


def write_then_read(x):
    y = np.ones(len(x) + 1)
    s = 0.0
    for i in range(len(x)):
        y[i + 1] = y[i] * np.sin(x[i]) + x[i]       # reads the value written one step before
        s = s + y[i + 1] * y[i]
    return s + np.sum(y[1:3] * x[0])


def rows_and_slices(x, w):
    m = np.zeros((3, 4))
    for i in range(3):
        m[i] = x * w[i]
    for j in range(4):
        m[1, j] = w[0] * j
    return np.sum(np.tanh(m))


def test_write_loops_match_finite_differences():
    d = differentiate(write_loop)
    assert "set_at(" in d.source
    assert_close(d.grad(X), numeric_grad(write_loop, X), 1e-6, 1e-8)
    check(write_loop, X, tape=False)            # (tensors do not take item assignment)
    check(write_then_read, X, tape=False)
    check(rows_and_slices, X[:4], X[:3], wrt=(0, 1), tape=False)


def test_written_arrays_the_caller_holds_stay_unchanged():
    def f(x, y):
        for i in range(2):
            y[i] = x[i] * 3.0
        return np.sum(y * y)
    y = np.array([1.0, 2.0, 3.0])
    g = grad(f)(X[:3], y)
    np.testing.assert_array_equal(y, [1.0, 2.0, 3.0])       # the gradient call leaves y alone
    assert_close(g, numeric_grad(lambda x: f(x, y.copy()), X[:3]), 1e-6, 1e-8)


def test_set_at_copies_what_a_view_still_shows():
    from runtime.rules.inplace import set_at

    def f():
        a = np.zeros(3)
        v = a[0:2]
        a = set_at(a, 0, 5.0)
        return a, v
    a, v = f()
    assert a[0] == 5.0 and v[0] == 0.0
