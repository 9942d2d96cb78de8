"""tape.jacobian / tape.batch_jacobian: values against finite differences, TF's shapes, None vs
zeros, higher order, and that the common rules run once per sweep (vectorised)."""

import numpy as np
import pytest

import runtime as tf
from runtime.engine import batching
from tests.fd import assert_close, numeric_grad

rng = np.random.default_rng(0)


def fd_jacobian(fn, x):
    """d fn(x)[i...] / d x[j...] by central differences, shape out.shape + x.shape."""
    x = np.asarray(x, dtype=np.float64)
    out = np.asarray(fn(tf.constant(x)))
    rows = []
    for k in range(out.size):
        def scalar(xv, k=k):
            return np.asarray(fn(tf.constant(xv))).reshape(-1)[k]
        rows.append(numeric_grad(scalar, x))
    return np.stack(rows).reshape(out.shape + x.shape)


FUNCTIONS = {
    "elementwise": (lambda x: tf.sin(x) * tf.exp(x), (3,)),
    "broadcast": (lambda x: x * tf.constant([[1.0], [2.0]], dtype=tf.float64) + x, (2, 3)),
    "matmul": (lambda x: tf.matmul(x, tf.transpose(x)), (2, 3)),
    "reduce": (lambda x: tf.reduce_sum(x * x, axis=1) + tf.reduce_max(x, axis=0)[:2], (2, 3)),
    "mean_keepdims": (lambda x: x - tf.reduce_mean(x, axis=1, keepdims=True), (2, 3)),
    "softmax": (lambda x: tf.nn.softmax(x), (2, 3)),
    "reshape_transpose": (lambda x: tf.transpose(tf.reshape(x * x, [3, 2])), (2, 3)),
    "concat_stack": (lambda x: tf.stack([tf.concat([x, x * 2], 0)[1:4], x * x], axis=1), (3,)),
    "gather_slice": (lambda x: tf.gather(x, [2, 0, 2]) * x[1:2], (4,)),
    "where_clip": (lambda x: tf.where(x > 0, x * x, tf.clip_by_value(x, -0.5, 0.5)), (4,)),
    "einsum": (lambda x: tf.einsum("ij,kj->ik", x, x * x), (2, 3)),
    "linalg_inv": (lambda x: tf.linalg.inv(x + 3 * tf.eye(2, dtype=tf.float64)), (2, 2)),
    "cumsum_loop": (lambda x: tf.math.cumsum(x) * x, (3,)),
    "scalar_target": (lambda x: tf.reduce_sum(tf.tanh(x)), (2, 2)),
}


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_jacobian_matches_finite_differences(name):
    fn, shape = FUNCTIONS[name]
    x0 = rng.normal(size=shape)
    x = tf.constant(x0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = fn(x)
    j = t.jacobian(y, x)
    assert j.shape == tuple(y.shape) + shape and j.dtype == tf.float64
    assert_close(j.numpy(), fd_jacobian(fn, x0), rtol=1e-5, atol=1e-6)


def test_jacobian_structure_unconnected_and_integer_sources():
    x = tf.Variable([1.0, 2.0])
    z = tf.Variable(3.0)
    i = tf.constant([1, 2])
    with tf.GradientTape(persistent=True) as t:
        t.watch(i)
        y = x * x
    jx, jz, ji = t.jacobian(y, [x, z, i])
    assert jx.numpy().tolist() == [[2.0, 0.0], [0.0, 4.0]]
    assert jz is None and ji is None
    zero = t.jacobian(y, {"z": z}, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    assert zero["z"].shape == (2,) and zero["z"].numpy().tolist() == [0.0, 0.0]
    with pytest.raises(ValueError):
        t.jacobian(y, x, unconnected_gradients="nope")


def test_jacobian_of_scalar_wrt_matrix_and_matrix_wrt_scalar():
    x = tf.constant(2.0)
    m = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape(persistent=True) as t:
        t.watch([x, m])
        y = m * x
        s = tf.reduce_sum(m * m)
    assert t.jacobian(y, x).shape == (2, 2)
    assert t.jacobian(y, x).numpy().tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert t.jacobian(s, m).shape == (2, 2)


def test_non_persistent_tape_allows_one_jacobian():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * x
    t.jacobian(y, x)
    with pytest.raises(RuntimeError):
        t.jacobian(y, x)


def test_batch_jacobian_matches_per_example_jacobian():
    x0 = rng.normal(size=(4, 3))
    w = tf.constant(rng.normal(size=(3, 2)))
    x = tf.constant(x0)
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = tf.tanh(tf.matmul(x, w))
    bj = t.batch_jacobian(y, x)
    full = t.jacobian(y, x)
    assert bj.shape == (4, 2, 3)
    for b in range(4):
        assert_close(bj.numpy()[b], full.numpy()[b, :, b, :])


def test_batch_jacobian_values_from_tf_docs_example():
    x = tf.constant([[4.0, 2.0], [1.0, 3.0]])
    with tf.GradientTape() as g:
        g.watch(x)
        y = x * x * x
    res = g.batch_jacobian(y, x)
    assert res.numpy().tolist() == [[[48.0, 0.0], [0.0, 12.0]], [[3.0, 0.0], [0.0, 27.0]]]


def test_batch_jacobian_unconnected_is_zeros_and_first_dims_must_match():
    x = tf.constant([[1.0, 2.0]])
    u = tf.constant([[5.0, 6.0, 7.0]])
    with tf.GradientTape(persistent=True) as t:
        t.watch([x, u])
        y = x * 2
    z = t.batch_jacobian(y, u)
    assert z is not None and z.shape == (1, 2, 3) and not np.any(z.numpy())
    with pytest.raises(ValueError):
        t.batch_jacobian(y, tf.constant([[1.0], [2.0]]))


def test_higher_order_jacobian_and_batch_jacobian_of_jacobian():
    x = tf.constant([[4.0, 2.0], [1.0, 3.0]])
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = x * x * x
        first = inner.batch_jacobian(y, x)
    second = outer.batch_jacobian(first, x)
    assert second.shape == (2, 2, 2, 2)
    expected = np.zeros((2, 2, 2, 2))
    for b in range(2):
        for i in range(2):
            expected[b, i, i, i] = 6 * x.numpy()[b, i]
    assert_close(second.numpy(), expected)

    v = tf.constant([1.0, 2.0])
    with tf.GradientTape() as t2:
        t2.watch(v)
        with tf.GradientTape() as t1:
            t1.watch(v)
            s = tf.reduce_sum(v ** 3)
        g = t1.gradient(s, v)
    h = t2.jacobian(g, v)  # the Hessian
    assert h.numpy().tolist() == [[6.0, 0.0], [0.0, 12.0]]


def test_common_rules_run_vectorised():
    """One call per node for elementwise/broadcast/matmul/reduction/shape rules."""
    calls = []
    original = batching.batched_vjp

    def spy(vjp, *a, **k):
        calls.append(vjp)
        return original(vjp, *a, **k)

    x = tf.constant(rng.normal(size=(5, 3)))
    w = tf.constant(rng.normal(size=(3, 4)))
    with tf.GradientTape() as t:
        t.watch(x)
        h = tf.nn.relu(tf.matmul(x, w) + 1.0)
        y = tf.reshape(tf.reduce_mean(h * h, axis=1), [5, 1]) * tf.sigmoid(x)
    batching.batched_vjp = spy
    try:
        j = t.jacobian(y, x)
    finally:
        batching.batched_vjp = original
    assert j.shape == (5, 3, 5, 3)
    assert all(batching.is_vectorised(v) for v in calls), [v.__name__ for v in calls if not batching.is_vectorised(v)]
