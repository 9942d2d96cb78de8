"""tf ops that once lost their derivative in one mode, against references computed by hand.

tf.fill dropped the gradient of its value; tf.linspace had no forward mode and no gradient with
batched endpoints; a ForwardAccumulator crashed on any comparison (``x > 0``) it saw.
"""

import numpy as np
import pytest

import runtime as tf
from tests.fd import assert_close


def test_fill_gradient_and_tangent():
    x = tf.Variable(np.array([0.7, -1.2]))
    w = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.fill([2, 3], x[0] * x[1]) * w)
    assert_close(tape.gradient(y, x).numpy(), w.sum() * np.array([-1.2, 0.7]), 1e-12, 1e-12, what="fill grad")
    c = tf.constant(np.array([0.7, -1.2]))
    with tf.autodiff.ForwardAccumulator(c, tf.constant([1.0, 0.0], dtype=tf.float64)) as acc:
        y = tf.fill([2, 3], c[0] * c[1])
    assert_close(acc.jvp(y).numpy(), np.full((2, 3), -1.2), 1e-12, 1e-12, what="fill jvp")
    filled = tf.fill([2], tf.constant(1.5))
    assert filled.dtype == tf.float32 and filled.numpy().flags.writeable
    assert tf.fill([2], 3).dtype == tf.int32


@pytest.mark.parametrize("start, stop", [(0.3, 1.1), ([0.3, -2.0], [1.1, 4.0])], ids=["scalars", "batch"])
def test_linspace_both_modes(start, stop):
    start, stop = np.array(start), np.array(stop)
    n = 5
    frac = np.linspace(0.0, 1.0, n).reshape((n,) + (1,) * start.ndim)
    w = np.arange(1.0, 1.0 + n * start.size).reshape((n,) + start.shape)
    s, e = tf.Variable(start), tf.Variable(stop)
    with tf.GradientTape() as tape:
        out = tf.linspace(s, e, n)
        y = tf.reduce_sum(out * w)
    assert_close(out.numpy(), np.linspace(start, stop, n), 0, 0, what="values")
    gs, ge = tape.gradient(y, [s, e])
    assert_close(gs.numpy(), np.sum(w * (1 - frac), axis=0), 1e-12, 1e-12, what="d/dstart")
    assert_close(ge.numpy(), np.sum(w * frac, axis=0), 1e-12, 1e-12, what="d/dstop")
    ts, te = np.ones_like(start) * 0.5, np.ones_like(stop) * -2.0
    cs, ce = tf.constant(start), tf.constant(stop)
    with tf.autodiff.ForwardAccumulator([cs, ce], [tf.constant(ts), tf.constant(te)]) as acc:
        out = tf.linspace(cs, ce, n)
    assert_close(acc.jvp(out).numpy(), ts * (1 - frac) + te * frac, 1e-12, 1e-12, what="jvp")


def test_forward_accumulator_sees_comparisons():
    x = tf.constant(np.array([0.5, 1.5, -0.2]))
    with tf.autodiff.ForwardAccumulator(x, tf.constant(np.ones(3))) as acc:
        y = tf.where(x > 0.9, x * x, -x) + tf.cast(x > 0.0, tf.float64)
    assert_close(acc.jvp(y).numpy(), np.array([-1.0, 3.0, -1.0]), 1e-12, 1e-12, what="where jvp")
