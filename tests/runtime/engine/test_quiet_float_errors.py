"""numpy's floating-point RuntimeWarnings never escape the runtime (TF prints nothing for log(-1)).

Every test runs with warnings as errors, so a single numpy warning fails it.
"""

import warnings

import numpy as np
import pytest

import runtime as tf


@pytest.fixture(autouse=True)
def warnings_are_errors():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


X = [-1.0, 0.0, 4.0]


def test_where_over_log_and_sqrt_of_negatives_forward_and_gradient():
    x = tf.constant(X)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.where(x > 0, tf.sqrt(x), 0.0) + tf.where(x > 0, tf.math.log(x), 0.0)
    g = tape.gradient(y, x)
    assert np.all(np.isfinite(y.numpy()) | (np.array(X) <= 0))
    assert g.numpy()[2] == pytest.approx(0.25 + 0.25)


def test_division_by_zero_overflow_and_their_gradients():
    x = tf.constant(X)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = 1.0 / x + tf.exp(x * 1000.0) + x ** 0.5
    g = tape.gradient(y, x)
    assert np.isinf(y.numpy()[1]) and np.isnan(g.numpy()[1])  # -inf from 1/x, +inf from x**0.5


def test_jacobians_and_forward_mode():
    x = tf.constant(X)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.sqrt(x) + tf.math.log(x)
    j = tape.jacobian(y, x)
    assert j.shape == (3, 3) and j.numpy()[2, 2] == pytest.approx(0.25 + 0.25)
    assert tape.batch_jacobian(tf.reshape(y, (3, 1)), tf.reshape(x, (3, 1))) is not None
    with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
        y = tf.sqrt(x) + tf.math.log(x)
    assert acc.jvp(y).numpy()[2] == pytest.approx(0.5)


def test_second_order_through_the_recorded_sweep():
    x = tf.constant(X)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.math.log(x) * x
        g = inner.gradient(y, x)
    h = outer.gradient(g, x)
    assert h.numpy()[2] == pytest.approx(1 / 4.0)


def test_user_numpy_outside_the_runtime_still_warns():
    """Only the runtime's own numpy calls are silenced: numpy's own behaviour is untouched."""
    with pytest.raises(RuntimeWarning):
        np.log(np.array(-1.0))
