"""Arithmetic with an IndexedSlices gradient: dense results that stay on the tape (TF semantics).

In TF an IndexedSlices has no arithmetic of its own (only ``-s``); ``s - t`` and ``t * s``
convert it with ``tf.convert_to_tensor`` and give a dense Tensor, which an outer tape still
differentiates.  Each case is checked against the same expression written with an explicit
``tf.convert_to_tensor`` and against the analytic second derivative.
"""

import numpy as np
import pytest

import runtime as tf

X = np.array([1.0, 2.0, 3.0])
TARGET = np.array([0.5, 0.0, 1.0])
IDX = [0, 2, 0]


def sparse_gradient_loss(combine, densify):
    """loss(g) with g = d/dx sum(gather(x, IDX) ** 3), an IndexedSlices; returns loss and d loss/dx."""
    x = tf.Variable(X)
    t = tf.constant(TARGET)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = tf.reduce_sum(tf.gather(x, IDX) ** 3)
        g = inner.gradient(y, x)
        assert isinstance(g, tf.IndexedSlices)
        if densify:
            g = tf.convert_to_tensor(g)
        out = combine(g, t)
        assert isinstance(out, tf.Tensor)
        loss = tf.reduce_sum(out)
    return loss, tf.convert_to_tensor(outer.gradient(loss, x))


COMBINE = {
    "s - t": lambda g, t: (g - t) ** 2,
    "t - s": lambda g, t: (t - g) ** 2,
    "t * s": lambda g, t: t * g,
    "s * t": lambda g, t: g * t,
    "s / t": lambda g, t: g / (t + 1.0),
    "t + s": lambda g, t: (t + g) ** 2,
    "tf.multiply": lambda g, t: tf.multiply(g, t) * g,
}


@pytest.mark.parametrize("name", sorted(COMBINE))
def test_arithmetic_densifies_and_stays_connected(name):
    loss, h = sparse_gradient_loss(COMBINE[name], densify=False)
    loss_ref, h_ref = sparse_gradient_loss(COMBINE[name], densify=True)
    np.testing.assert_allclose(loss.numpy(), loss_ref.numpy(), rtol=1e-12)
    np.testing.assert_allclose(h.numpy(), h_ref.numpy(), rtol=1e-12)
    # analytic: g = (6 x0^2, 0, 3 x2^2); dg0/dx0 = 12 x0, dg2/dx2 = 6 x2
    g = np.array([6 * X[0] ** 2, 0.0, 3 * X[2] ** 2])
    eps = 1e-6
    dloss_dg = np.array([(_value(name, g + eps * e) - _value(name, g - eps * e)) / (2 * eps)
                         for e in np.eye(3)])
    np.testing.assert_allclose(h.numpy(), dloss_dg * np.array([12 * X[0], 0.0, 6 * X[2]]), rtol=1e-6)


def _value(name, g):
    return float(np.sum(COMBINE[name](tf.constant(g), tf.constant(TARGET)).numpy()))


def test_scalar_scaling_and_negation_keep_the_slices():
    s = tf.IndexedSlices(tf.constant([[1.0, 2.0]]), tf.constant([1]), tf.constant([3, 2]))
    assert isinstance(2.0 * s, tf.IndexedSlices) and isinstance(-s, tf.IndexedSlices)
    np.testing.assert_array_equal(tf.convert_to_tensor(s * 2.0).numpy(), [[0, 0], [2, 4], [0, 0]])
    dense = np.ones((3, 2))
    np.testing.assert_array_equal(s * dense, [[0, 0], [1, 2], [0, 0]])   # numpy operand: numpy result
    assert type(s * dense) is np.ndarray
