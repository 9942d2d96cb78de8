"""``keras.losses``: per-sample loss functions and the Loss classes that reduce them.

Functions follow Keras 3: labels and predictions are brought to the same rank first (a
``(batch,)`` label against a ``(batch, 1)`` prediction is expanded, not broadcast to
``(batch, batch)``), labels are cast to the prediction's dtype, and the result is the mean over
the last axis, shape ``(batch,)``.  Probabilities are clipped to ``[1e-7, 1 - 1e-7]`` before logs.
Loss objects reduce with ``'sum_over_batch_size'`` (the mean) by default.
"""

import numpy as np

from ..rules import activations as _prim
from ..engine.tensor import _TensorBase, constant
from . import backend

_EPS = backend.epsilon()


def _pred(x):
    if isinstance(x, _TensorBase):
        return x
    if isinstance(x, np.ndarray) and x.dtype.kind == "f":
        return constant(x)
    return backend.convert(x)


def _true(y, like):
    dtype = like._value.dtype
    if isinstance(y, _TensorBase):
        return backend.cast(y, dtype)
    return constant(np.asarray(backend.to_numpy(y), dtype=dtype))


def _same_rank(y_true, y_pred):
    """Keras' squeeze_or_expand_to_same_rank for a label/prediction pair."""
    rt, rp = y_true.ndim, y_pred.ndim
    if rt == rp + 1 and y_true.shape[-1] == 1:
        if rp == 1:
            y_pred = np.expand_dims(y_pred, -1)
        else:
            y_true = np.squeeze(y_true, -1)
    elif rp == rt + 1 and y_pred.shape[-1] == 1:
        if rt == 1:
            y_true = np.expand_dims(y_true, -1)
        else:
            y_pred = np.squeeze(y_pred, -1)
    return y_true, y_pred


def _prepare(y_true, y_pred):
    y_pred = _pred(y_pred)
    y_true = _true(y_true, y_pred)
    return _same_rank(y_true, y_pred)


def mean_squared_error(y_true, y_pred):
    y_true, y_pred = _prepare(y_true, y_pred)
    return np.mean(np.square(y_pred - y_true), axis=-1)


def mean_absolute_error(y_true, y_pred):
    y_true, y_pred = _prepare(y_true, y_pred)
    return np.mean(np.abs(y_pred - y_true), axis=-1)


def huber(y_true, y_pred, delta=1.0):
    y_true, y_pred = _prepare(y_true, y_pred)
    error = y_pred - y_true
    abs_error = np.abs(error)
    quadratic = 0.5 * np.square(error)
    linear = delta * abs_error - 0.5 * delta ** 2
    return np.mean(np.where(abs_error <= delta, quadratic, linear), axis=-1)


def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    y_true, y_pred = _prepare(y_true, y_pred)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    if from_logits:
        # as Keras on TF: its gradient is sigmoid(x) - z everywhere, a logit of exactly 0 included
        from .. import nn
        per = nn.sigmoid_cross_entropy_with_logits(labels=y_true, logits=y_pred)
    else:
        p = np.clip(y_pred, _EPS, 1.0 - _EPS)
        per = -(y_true * np.log(p) + (1.0 - y_true) * np.log(1.0 - p))
    return np.mean(per, axis=axis)


def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    y_pred = _pred(y_pred)
    y_true = _true(y_true, y_pred)
    if tuple(y_true.shape) != tuple(y_pred.shape):
        raise ValueError(f"Arguments `target` and `output` must have the same shape. Received: "
                         f"target.shape={tuple(y_true.shape)}, output.shape={tuple(y_pred.shape)}")
    if label_smoothing:
        n = y_pred.shape[axis]
        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / n
    if from_logits:
        logp = y_pred - _prim.logsumexp(y_pred, axis=axis, keepdims=True)
    else:
        p = y_pred / np.sum(y_pred, axis=axis, keepdims=True)
        logp = np.log(np.clip(p, _EPS, 1.0 - _EPS))
    return -np.sum(y_true * logp, axis=axis)


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, ignore_class=None, axis=-1):
    y_pred = _pred(y_pred)
    labels = np.asarray(backend.to_numpy(y_true))
    if labels.ndim == y_pred.ndim and labels.shape[-1] == 1:
        labels = labels[..., 0]
    labels = labels.astype(np.int64)
    n = y_pred.shape[axis]
    valid = np.ones(labels.shape, bool) if ignore_class is None else labels != ignore_class
    safe = np.where(valid, labels, 0)
    if safe.size and (safe.min() < 0 or safe.max() >= n):
        raise ValueError(f"Received a label value outside the valid range [0, {n}) in "
                         f"sparse_categorical_crossentropy: {labels}")
    onehot = np.eye(n, dtype=y_pred._value.dtype)[safe]
    if not from_logits:
        y_pred = np.log(np.clip(y_pred, _EPS, 1.0 - _EPS))
    logp = y_pred - _prim.logsumexp(y_pred, axis=axis, keepdims=True)
    out = -np.sum(onehot * logp, axis=axis)
    if ignore_class is not None:
        out = out * valid.astype(y_pred._value.dtype)
    return out


def _tf():
    from ..ops import math_ops
    return math_ops


# The losses below as Keras 3 writes them with TF ops, so their gradients at kinks and clipped
# bounds are TF's (tf.maximum's tie to its first argument, clip_by_value passing the gradient at its
# bounds).

def _hinge_labels(y_true):
    """Binary 0/1 labels as -1/1 (other labels unchanged)."""
    values = np.asarray(backend.to_numpy(y_true))
    return 2.0 * y_true - 1.0 if np.all((values == 0) | (values == 1)) else y_true


def hinge(y_true, y_pred):
    y_pred = _pred(y_pred)
    y_true = _hinge_labels(_true(y_true, y_pred))
    return np.mean(_tf().maximum(1.0 - y_true * y_pred, 0.0), axis=-1)


def squared_hinge(y_true, y_pred):
    y_pred = _pred(y_pred)
    y_true = _hinge_labels(_true(y_true, y_pred))
    return np.mean(np.square(_tf().maximum(1.0 - y_true * y_pred, 0.0)), axis=-1)


def categorical_hinge(y_true, y_pred):
    y_pred = _pred(y_pred)
    y_true = _true(y_true, y_pred)
    pos = np.sum(y_true * y_pred, axis=-1)
    neg = _tf().reduce_max((1.0 - y_true) * y_pred, axis=-1)
    return _tf().maximum(neg - pos + 1.0, 0.0)


def mean_absolute_percentage_error(y_true, y_pred):
    y_true, y_pred = _prepare(y_true, y_pred)
    diff = np.abs((y_true - y_pred) / _tf().maximum(np.abs(y_true), _EPS))
    return 100.0 * np.mean(diff, axis=-1)


def mean_squared_logarithmic_error(y_true, y_pred):
    y_true, y_pred = _prepare(y_true, y_pred)
    first = np.log(_tf().maximum(y_pred, _EPS) + 1.0)
    second = np.log(_tf().maximum(y_true, _EPS) + 1.0)
    return np.mean(np.square(first - second), axis=-1)


def log_cosh(y_true, y_pred):
    y_true, y_pred = _prepare(y_true, y_pred)
    x = y_pred - y_true
    return np.mean(x + _prim.softplus(x * -2.0) - np.log(2.0).astype(x._value.dtype), axis=-1)


def kl_divergence(y_true, y_pred):
    y_pred = _pred(y_pred)
    y_true = _true(y_true, y_pred)
    y_true = _tf().clip_by_value(y_true, _EPS, 1.0)
    y_pred = _tf().clip_by_value(y_pred, _EPS, 1.0)
    return np.sum(y_true * np.log(y_true / y_pred), axis=-1)


def poisson(y_true, y_pred):
    y_pred = _pred(y_pred)
    y_true = _true(y_true, y_pred)
    return np.mean(y_pred - y_true * np.log(y_pred + _EPS), axis=-1)


def _l2_normalize(x, axis):
    """x / max(|x|, eps) along ``axis``, as Keras writes it: x * min(rsqrt(sum(x**2)), 1 / eps)."""
    inv = _tf().minimum(1.0 / np.sqrt(np.sum(np.square(x), axis=axis, keepdims=True)), 1.0 / _EPS)
    return x * inv


def cosine_similarity(y_true, y_pred, axis=-1):
    y_true, y_pred = _prepare(y_true, y_pred)
    return -np.sum(_l2_normalize(y_true, axis) * _l2_normalize(y_pred, axis), axis=axis)


def binary_focal_crossentropy(y_true, y_pred, apply_class_balancing=False, alpha=0.25, gamma=2.0,
                              from_logits=False, label_smoothing=0.0, axis=-1):
    y_pred = _pred(y_pred)
    y_true = _true(y_true, y_pred)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    if from_logits:
        y_pred = _prim.sigmoid(y_pred)
    p = _tf().clip_by_value(y_pred, _EPS, 1.0 - _EPS)
    bce = -(y_true * np.log(p) + (1.0 - y_true) * np.log(1.0 - p))
    p_t = y_true * y_pred + (1.0 - y_true) * (1.0 - y_pred)
    focal = np.power(1.0 - p_t, gamma) * bce
    if apply_class_balancing:
        focal = (y_true * alpha + (1.0 - y_true) * (1.0 - alpha)) * focal
    return np.mean(focal, axis=axis)


def categorical_focal_crossentropy(y_true, y_pred, alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0,
                                   axis=-1):
    y_pred = _pred(y_pred)
    y_true = _true(y_true, y_pred)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / y_true.shape[-1]
    if from_logits:
        y_pred = np.exp(y_pred - _prim.logsumexp(y_pred, axis=axis, keepdims=True))
    output = _tf().clip_by_value(y_pred / np.sum(y_pred, axis=axis, keepdims=True), _EPS, 1.0 - _EPS)
    focal = np.power(1.0 - output, gamma) * alpha * (-y_true * np.log(output))
    return np.sum(focal, axis=axis)


mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error
mape = MAPE = mean_absolute_percentage_error
msle = MSLE = mean_squared_logarithmic_error
kld = KLD = kl_divergence
logcosh = log_cosh


# --- Loss classes ----------------------------------------------------------------------

_REDUCTIONS = ("sum_over_batch_size", "sum", "mean", "mean_with_sample_weight", "none", None)


def reduce_values(values, sample_weight=None, reduction="sum_over_batch_size"):
    if reduction not in _REDUCTIONS:
        raise ValueError(f"Invalid value for argument `reduction`. Expected one of {_REDUCTIONS}. "
                         f"Received: reduction={reduction!r}")
    if sample_weight is not None:
        sw = _true(sample_weight, values)
        if sw.ndim > values.ndim:
            sw = np.reshape(sw, tuple(values.shape))
        values = values * sw
    if reduction in ("none", None):
        return values
    if reduction in ("sum_over_batch_size", "mean") and sample_weight is None:
        return np.mean(values)  # what tf.reduce_mean gives in a hand-written loop
    total = np.sum(values)
    if reduction == "sum":
        return total
    if reduction == "mean_with_sample_weight" and sample_weight is not None:
        return total / np.sum(np.broadcast_to(backend.to_numpy(sample_weight), values.shape))
    return total / max(int(np.size(values._value)), 1)


class Loss:
    """Base class: ``__call__(y_true, y_pred, sample_weight=None)`` returns the reduced loss."""

    def __init__(self, name=None, reduction="sum_over_batch_size", dtype=None):
        self.name = name or backend.snake_case(type(self).__name__)
        self.reduction = reduction
        self.dtype = dtype or backend.floatx()

    def call(self, y_true, y_pred):
        raise NotImplementedError

    def __call__(self, y_true, y_pred, sample_weight=None):
        values = self.call(y_true, y_pred)
        out = reduce_values(values, sample_weight, self.reduction)
        return backend.cast(out, self.dtype)

    def get_config(self):
        return {"name": self.name, "reduction": self.reduction}


class LossFunctionWrapper(Loss):
    def __init__(self, fn, reduction="sum_over_batch_size", name=None, dtype=None, **kwargs):
        super().__init__(name=name, reduction=reduction, dtype=dtype)
        self.fn = fn
        self._fn_kwargs = kwargs

    def call(self, y_true, y_pred):
        return self.fn(y_true, y_pred, **self._fn_kwargs)

    def get_config(self):
        return {**super().get_config(), **self._fn_kwargs}


class MeanSquaredError(LossFunctionWrapper):
    def __init__(self, reduction="sum_over_batch_size", name="mean_squared_error", dtype=None):
        super().__init__(mean_squared_error, reduction=reduction, name=name, dtype=dtype)


class MeanAbsoluteError(LossFunctionWrapper):
    def __init__(self, reduction="sum_over_batch_size", name="mean_absolute_error", dtype=None):
        super().__init__(mean_absolute_error, reduction=reduction, name=name, dtype=dtype)


class Huber(LossFunctionWrapper):
    def __init__(self, delta=1.0, reduction="sum_over_batch_size", name="huber_loss", dtype=None):
        super().__init__(huber, reduction=reduction, name=name, dtype=dtype, delta=delta)


class BinaryCrossentropy(LossFunctionWrapper):
    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1, reduction="sum_over_batch_size",
                 name="binary_crossentropy", dtype=None):
        super().__init__(binary_crossentropy, reduction=reduction, name=name, dtype=dtype,
                         from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)


class CategoricalCrossentropy(LossFunctionWrapper):
    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1, reduction="sum_over_batch_size",
                 name="categorical_crossentropy", dtype=None):
        super().__init__(categorical_crossentropy, reduction=reduction, name=name, dtype=dtype,
                         from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)


class SparseCategoricalCrossentropy(LossFunctionWrapper):
    def __init__(self, from_logits=False, ignore_class=None, reduction="sum_over_batch_size",
                 name="sparse_categorical_crossentropy", dtype=None):
        super().__init__(sparse_categorical_crossentropy, reduction=reduction, name=name, dtype=dtype,
                         from_logits=from_logits, ignore_class=ignore_class)


class Hinge(LossFunctionWrapper):
    def __init__(self, reduction="sum_over_batch_size", name="hinge", dtype=None):
        super().__init__(hinge, reduction=reduction, name=name, dtype=dtype)


class SquaredHinge(LossFunctionWrapper):
    def __init__(self, reduction="sum_over_batch_size", name="squared_hinge", dtype=None):
        super().__init__(squared_hinge, reduction=reduction, name=name, dtype=dtype)


class CategoricalHinge(LossFunctionWrapper):
    def __init__(self, reduction="sum_over_batch_size", name="categorical_hinge", dtype=None):
        super().__init__(categorical_hinge, reduction=reduction, name=name, dtype=dtype)


class MeanAbsolutePercentageError(LossFunctionWrapper):
    def __init__(self, reduction="sum_over_batch_size", name="mean_absolute_percentage_error", dtype=None):
        super().__init__(mean_absolute_percentage_error, reduction=reduction, name=name, dtype=dtype)


class MeanSquaredLogarithmicError(LossFunctionWrapper):
    def __init__(self, reduction="sum_over_batch_size", name="mean_squared_logarithmic_error", dtype=None):
        super().__init__(mean_squared_logarithmic_error, reduction=reduction, name=name, dtype=dtype)


class LogCosh(LossFunctionWrapper):
    def __init__(self, reduction="sum_over_batch_size", name="log_cosh", dtype=None):
        super().__init__(log_cosh, reduction=reduction, name=name, dtype=dtype)


class KLDivergence(LossFunctionWrapper):
    def __init__(self, reduction="sum_over_batch_size", name="kl_divergence", dtype=None):
        super().__init__(kl_divergence, reduction=reduction, name=name, dtype=dtype)


class Poisson(LossFunctionWrapper):
    def __init__(self, reduction="sum_over_batch_size", name="poisson", dtype=None):
        super().__init__(poisson, reduction=reduction, name=name, dtype=dtype)


class CosineSimilarity(LossFunctionWrapper):
    def __init__(self, axis=-1, reduction="sum_over_batch_size", name="cosine_similarity", dtype=None):
        super().__init__(cosine_similarity, reduction=reduction, name=name, dtype=dtype, axis=axis)


class BinaryFocalCrossentropy(LossFunctionWrapper):
    def __init__(self, apply_class_balancing=False, alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0,
                 axis=-1, reduction="sum_over_batch_size", name="binary_focal_crossentropy", dtype=None):
        super().__init__(binary_focal_crossentropy, reduction=reduction, name=name, dtype=dtype,
                         apply_class_balancing=apply_class_balancing, alpha=alpha, gamma=gamma,
                         from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)


class CategoricalFocalCrossentropy(LossFunctionWrapper):
    def __init__(self, alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction="sum_over_batch_size", name="categorical_focal_crossentropy", dtype=None):
        super().__init__(categorical_focal_crossentropy, reduction=reduction, name=name, dtype=dtype, alpha=alpha,
                         gamma=gamma, from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)


_BY_NAME = {
    "mean_squared_error": mean_squared_error, "mse": mean_squared_error, "MSE": mean_squared_error,
    "mean_absolute_error": mean_absolute_error, "mae": mean_absolute_error, "MAE": mean_absolute_error,
    "huber": huber, "huber_loss": huber, "binary_crossentropy": binary_crossentropy,
    "categorical_crossentropy": categorical_crossentropy,
    "sparse_categorical_crossentropy": sparse_categorical_crossentropy,
    **{f.__name__: f for f in (hinge, squared_hinge, categorical_hinge, mean_absolute_percentage_error,
                               mean_squared_logarithmic_error, log_cosh, kl_divergence, poisson, cosine_similarity,
                               binary_focal_crossentropy, categorical_focal_crossentropy)},
    "mape": mean_absolute_percentage_error, "MAPE": mean_absolute_percentage_error,
    "msle": mean_squared_logarithmic_error, "MSLE": mean_squared_logarithmic_error,
    "kld": kl_divergence, "KLD": kl_divergence, "logcosh": log_cosh,
}


def get(identifier):
    """A loss callable from a name (``'mse'``), a Loss instance or a function."""
    if identifier is None:
        return None
    if isinstance(identifier, str):
        try:
            return _BY_NAME[identifier]
        except KeyError:
            raise ValueError(f"Could not interpret loss identifier: {identifier!r}; known: "
                             f"{', '.join(sorted(_BY_NAME))}") from None
    if isinstance(identifier, type):
        return identifier()
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret loss identifier: {identifier!r}")
