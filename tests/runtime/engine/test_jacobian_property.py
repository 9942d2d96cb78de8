"""Property: for random shapes and random chains of ops, the vectorised jacobian equals the
stack of one gradient per output element, and batch_jacobian equals its diagonal blocks."""

import numpy as np
from hypothesis import given, strategies as st

import runtime as tf

OPS = [
    lambda x, c: tf.sin(x) * c,
    lambda x, c: x * x + c,
    lambda x, c: tf.maximum(x, c),
    lambda x, c: tf.where(x > 0, x, c * x),
    lambda x, c: x / (1.0 + c * c),
    lambda x, c: tf.nn.softmax(x),
    lambda x, c: x - tf.reduce_mean(x, axis=-1, keepdims=True),
    lambda x, c: tf.tanh(tf.matmul(x, tf.transpose(x)))[:, :1] * x,
    lambda x, c: tf.reverse(x, [1]) * tf.reduce_max(x, axis=0),
    lambda x, c: tf.concat([x[:, 1:], x[:, :1]], axis=1),
]


@given(
    rows=st.integers(1, 3), cols=st.integers(1, 4),
    ops=st.lists(st.integers(0, len(OPS) - 1), min_size=1, max_size=4),
    seed=st.integers(0, 2 ** 16),
)
def test_jacobian_equals_stacked_gradients(rows, cols, ops, seed):
    rng = np.random.default_rng(seed)
    x = tf.constant(rng.normal(size=(rows, cols)))
    c = tf.constant(rng.normal(size=(cols,)))
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = x
        for k in ops:
            y = OPS[k](y, c)
    j = t.jacobian(y, x).numpy()
    ys = tuple(y.shape)
    for k in range(int(np.prod(ys))):
        seed_ = np.zeros(ys)
        seed_.reshape(-1)[k] = 1.0
        g = t.gradient(y, x, output_gradients=tf.constant(seed_))
        row = np.zeros(x.shape) if g is None else g.numpy()
        np.testing.assert_allclose(j.reshape((-1,) + tuple(x.shape))[k], row, rtol=1e-10, atol=1e-12)
    if all(k in (0, 1, 2, 3, 4, 5, 6, 9) for k in ops):  # row-independent ops
        bj = t.batch_jacobian(y, x).numpy()
        for b in range(rows):
            np.testing.assert_allclose(bj[b], j[b, :, b, :], rtol=1e-10, atol=1e-12)
