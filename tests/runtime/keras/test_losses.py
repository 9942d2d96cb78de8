"""keras.losses and keras.activations: values vs numpy references, shapes, dtypes, gradients vs FD."""

import numpy as np
import pytest

import runtime as tf
from runtime import keras
from runtime.keras import losses
from tests.fd import assert_close, numeric_grad

RNG = np.random.default_rng(0)


def _softmax(z):
    e = np.exp(z - z.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _grad(fn, y_true, y_pred):
    p = tf.constant(y_pred)
    with tf.GradientTape() as tape:
        tape.watch(p)
        out = np.sum(fn(y_true, p))
    return out, tape.gradient(out, p)


Y = RNG.normal(size=(5, 3))
P = RNG.normal(size=(5, 3))
PROB = RNG.uniform(0.05, 0.95, size=(5, 3))
BIN = (RNG.uniform(size=(5, 3)) > 0.5).astype(np.float64)
ONEHOT = np.eye(3)[RNG.integers(0, 3, 5)]
LABELS = RNG.integers(0, 3, 5)
LOGITS = RNG.normal(size=(5, 3))

CASES = {
    "mean_squared_error": (losses.mean_squared_error, Y, P, lambda y, p: ((p - y) ** 2).mean(-1)),
    "mean_absolute_error": (losses.mean_absolute_error, Y, P, lambda y, p: np.abs(p - y).mean(-1)),
    "huber": (losses.huber, Y, P, lambda y, p: np.where(np.abs(p - y) <= 1, 0.5 * (p - y) ** 2,
                                                         np.abs(p - y) - 0.5).mean(-1)),
    "binary_crossentropy": (losses.binary_crossentropy, BIN, PROB,
                            lambda y, p: -(y * np.log(p) + (1 - y) * np.log(1 - p)).mean(-1)),
    "binary_crossentropy_logits": (lambda y, p: losses.binary_crossentropy(y, p, from_logits=True), BIN, LOGITS,
                                   lambda y, z: -(y * np.log(1 / (1 + np.exp(-z)))
                                                  + (1 - y) * np.log(1 - 1 / (1 + np.exp(-z)))).mean(-1)),
    "categorical_crossentropy": (losses.categorical_crossentropy, ONEHOT, PROB,
                                 lambda y, p: -(y * np.log(p / p.sum(-1, keepdims=True))).sum(-1)),
    "categorical_crossentropy_logits": (lambda y, p: losses.categorical_crossentropy(y, p, from_logits=True),
                                        ONEHOT, LOGITS, lambda y, z: -(y * np.log(_softmax(z))).sum(-1)),
    "sparse_categorical_crossentropy": (losses.sparse_categorical_crossentropy, LABELS, PROB,
                                        lambda y, p: -np.log((p / p.sum(-1, keepdims=True))[np.arange(5), y])),
    "sparse_categorical_crossentropy_logits": (
        lambda y, p: losses.sparse_categorical_crossentropy(y, p, from_logits=True), LABELS, LOGITS,
        lambda y, z: -np.log(_softmax(z)[np.arange(5), y])),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_loss_values_and_gradients(name):
    fn, y, p, ref = CASES[name]
    out = fn(y, tf.constant(p))
    assert out.shape == (5,) and out.dtype == tf.float64
    assert_close(out, ref(y, p), rtol=1e-6, what=name)
    _, g = _grad(fn, y, p)
    assert_close(g, numeric_grad(lambda q: ref(y, q), p), rtol=1e-5, atol=1e-7, what=f"d {name}")


def test_float32_predictions_give_float32_losses():
    for fn in (losses.mse, losses.mae, losses.binary_crossentropy):
        out = fn(np.ones((4, 2)), tf.constant(np.full((4, 2), 0.5, np.float32)))
        assert out.dtype == tf.float32 and out.shape == (4,)


def test_rank_mismatch_is_expanded_not_broadcast():
    # Keras 3: a (batch,) label against a (batch, 1) prediction is not broadcast to (batch, batch)
    y = np.arange(4.0)
    p = tf.constant(np.arange(4.0, dtype=np.float32).reshape(4, 1) + 1)
    out = losses.mean_squared_error(y, p)
    assert out.shape == (4,)
    np.testing.assert_allclose(out.numpy(), np.ones(4))
    assert losses.mse is losses.mean_squared_error and losses.MSE is losses.mean_squared_error


def test_loss_classes_reduce_to_the_mean():
    y, p = Y, tf.constant(P)
    assert float(losses.MeanSquaredError()(y, p)) == pytest.approx(((P - Y) ** 2).mean())
    assert float(losses.MeanAbsoluteError()(y, p)) == pytest.approx(np.abs(P - Y).mean(), rel=1e-6)
    assert float(losses.Huber(delta=0.5)(y, p)) == pytest.approx(
        np.where(np.abs(P - Y) <= 0.5, 0.5 * (P - Y) ** 2, 0.5 * np.abs(P - Y) - 0.125).mean(), rel=1e-6)
    bce = losses.BinaryCrossentropy(from_logits=True)(BIN, tf.constant(LOGITS))
    assert float(bce) == pytest.approx(float(np.mean(CASES["binary_crossentropy_logits"][3](BIN, LOGITS))), rel=1e-6)
    cce = losses.CategoricalCrossentropy()(ONEHOT, tf.constant(PROB))
    assert float(cce) == pytest.approx(float(np.mean(CASES["categorical_crossentropy"][3](ONEHOT, PROB))), rel=1e-6)
    scce = losses.SparseCategoricalCrossentropy(from_logits=True)(LABELS.reshape(5, 1), tf.constant(LOGITS))
    assert float(scce) == pytest.approx(float(np.mean(CASES["sparse_categorical_crossentropy_logits"][3](LABELS, LOGITS))))
    # reductions and sample weights
    mse = losses.MeanSquaredError(reduction="sum")(y, p)
    assert float(mse) == pytest.approx(((P - Y) ** 2).mean(-1).sum())
    per = losses.MeanSquaredError(reduction=None)(y, p)
    assert per.shape == (5,)
    w = np.array([1.0, 0, 0, 0, 2.0])
    weighted = losses.MeanSquaredError()(y, p, sample_weight=w)
    assert float(weighted) == pytest.approx((((P - Y) ** 2).mean(-1) * w).sum() / 5)
    assert losses.MeanSquaredError().name == "mean_squared_error"
    assert losses.MeanSquaredError()(y, tf.constant(P.astype(np.float32))).dtype == tf.float32


def test_probability_clipping_keeps_losses_finite():
    out = losses.binary_crossentropy(np.array([[1.0, 0.0]]), tf.constant(np.array([[0.0, 1.0]], np.float32)))
    assert np.isfinite(out.numpy()).all() and float(out[0]) > 15


@pytest.mark.parametrize("name", ["relu", "sigmoid", "tanh", "softplus", "softsign", "elu", "selu", "silu",
                                  "exponential", "leaky_relu", "softmax", "log_softmax", "linear"])
def test_activations_gradients(name):
    fn = keras.activations.get(name)
    x0 = RNG.normal(size=(3, 4)) + 0.05   # away from relu's kink at 0
    w = RNG.normal(size=(3, 4))
    x = tf.constant(x0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        out = np.sum(fn(x) * w)
    assert fn(x).shape == (3, 4) and fn(x).dtype == tf.float64
    g = tape.gradient(out, x)
    assert_close(g, numeric_grad(lambda v: np.sum(np.asarray(fn(tf.constant(v))) * w), x0),
                 rtol=1e-5, atol=1e-7, what=name)


def test_activation_values():
    x = np.array([-2.0, 0.0, 3.0])
    np.testing.assert_allclose(keras.activations.relu(x).numpy(), [0, 0, 3])
    np.testing.assert_allclose(keras.activations.sigmoid(x).numpy(), 1 / (1 + np.exp(-x)))
    np.testing.assert_allclose(keras.activations.softmax(x).numpy(), _softmax(x))
    np.testing.assert_allclose(keras.activations.relu(x, max_value=1.0).numpy(), [0, 0, 1])
    with pytest.raises(ValueError):
        keras.activations.get("nope")
