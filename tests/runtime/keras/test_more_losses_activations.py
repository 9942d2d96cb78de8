"""Keras losses, activations and activation layers added for TF parity, against finite differences
away from their kinks (float64, reverse and forward mode, second order); their values and gradients
at the kinks are TF 2.21's, recorded in tests/runtime/tf_corpus/ties_keras_*_more.py."""

import numpy as np
import pytest

import runtime as tf
from runtime import keras
from tests.fd import assert_close, numeric_grad

RNG = np.random.default_rng(8)
PRED = RNG.uniform(0.1, 0.9, (3, 4))
LABELS = (RNG.uniform(size=(3, 4)) > 0.5).astype(float)
SIGNED = RNG.uniform(-2.0, 2.0, (3, 4))

F64 = {"dtype": "float64"}
L = keras.losses
LOSSES = [
    (L.Hinge(**F64), LABELS, SIGNED * 0.7), (L.SquaredHinge(**F64), LABELS, SIGNED * 0.7),
    (L.CategoricalHinge(**F64), np.eye(4)[[0, 2, 1]], SIGNED),
    (L.MeanAbsolutePercentageError(**F64), PRED + 0.5, SIGNED),
    (L.MeanSquaredLogarithmicError(**F64), PRED * 3, PRED + 0.2), (L.LogCosh(**F64), PRED, SIGNED),
    (L.KLDivergence(**F64), PRED / PRED.sum(-1, keepdims=True), PRED), (L.Poisson(**F64), PRED * 2, PRED),
    (L.CosineSimilarity(**F64), SIGNED[::-1], SIGNED), (L.CosineSimilarity(axis=0, **F64), PRED, SIGNED),
    (L.BinaryFocalCrossentropy(**F64), LABELS, PRED),
    (L.BinaryFocalCrossentropy(from_logits=True, apply_class_balancing=True, label_smoothing=0.1, **F64),
     LABELS, SIGNED),
    (L.CategoricalFocalCrossentropy(**F64), np.eye(4)[[0, 2, 1]], PRED),
    (L.CategoricalFocalCrossentropy(from_logits=True, gamma=1.5, label_smoothing=0.2, **F64),
     np.eye(4)[[3, 2, 1]], SIGNED),
]

ACTIVATIONS = ["relu6", "gelu", "hard_sigmoid", "hard_silu", "hard_tanh", "mish", "celu", "hard_shrink",
               "soft_shrink", "tanh_shrink", "log_sigmoid", "glu"]
LAYERS = [lambda: keras.layers.ReLU(max_value=1.5, negative_slope=0.1, threshold=0.2, **F64),
          lambda: keras.layers.LeakyReLU(**F64), lambda: keras.layers.ELU(alpha=0.7, **F64),
          lambda: keras.layers.Softmax(**F64), lambda: keras.layers.Softmax(axis=(0, 1), **F64),
          lambda: keras.layers.PReLU(alpha_initializer=keras.initializers.Constant(0.3), **F64)]

def _check(f, x0):
    """f: tensor -> scalar tensor; reverse, forward and second order against finite differences."""
    plain = lambda v: float(f(tf.constant(v)))   # noqa: E731
    want = numeric_grad(plain, x0)
    x = tf.constant(x0)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        g = tape.gradient(y, x)
        gv = tf.reduce_sum(g * tf.constant(np.ones_like(x0)))
    assert_close(g.numpy(), want, 1e-5, 1e-6, what="reverse")
    t = RNG.standard_normal(x0.shape)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(t)) as acc:
        y = f(x)
    assert_close(float(acc.jvp(y)), float(np.sum(want * t)), 1e-5, 1e-6, what="forward")
    h = outer.gradient(gv, x)
    row = lambda v: numeric_grad(plain, v).sum()   # noqa: E731
    assert_close(np.zeros_like(x0) if h is None else h.numpy(), numeric_grad(row, x0, 1e-4), 1e-3, 1e-3,
                 what="second order")


@pytest.mark.parametrize("loss, y_true, y_pred", LOSSES, ids=[type(l).__name__ for l, _, _ in LOSSES])
def test_losses(loss, y_true, y_pred):
    _check(lambda p: loss(tf.constant(y_true), p), y_pred)


@pytest.mark.parametrize("name", ACTIVATIONS)
def test_activations(name):
    fn = keras.activations.get(name)
    x0 = SIGNED * 2.1 + 0.013                      # away from 0, +-0.5, +-1, +-3, 6
    _check(lambda x: tf.reduce_sum(fn(x) * tf.constant(PRED if name != "glu" else PRED[:, :2])), x0)


@pytest.mark.parametrize("make", LAYERS, ids=["ReLU", "LeakyReLU", "ELU", "Softmax", "Softmax(axes)", "PReLU"])
def test_layers(make):
    layer = make()
    _check(lambda x: tf.reduce_sum(layer(x) * tf.constant(PRED)), SIGNED + 0.013)
