"""``keras.metrics``: stateful running averages (``update_state`` / ``result`` / ``reset_state``).

State lives in non-trainable float32 variables (``total``, ``count``); updates use plain numpy
values and are never recorded on a tape.
"""

import numpy as np

from . import backend, losses
from ..engine.tensor import constant


def _np(x):
    return np.asarray(backend.to_numpy(x))


class Metric:
    """Base class; ``m(y_true, y_pred)`` updates the state and returns the current result."""

    def __init__(self, name=None, dtype=None):
        self.name = name or backend.snake_case(type(self).__name__)
        self.dtype = dtype or backend.floatx()
        self._variables = []

    def add_variable(self, shape=(), initializer="zeros", dtype=None, name=None):
        v = backend.KerasVariable(np.zeros(shape, dtype or self.dtype), trainable=False, name=name,
                                  path=f"{self.name}/{name}")
        self._variables.append(v)
        return v

    add_weight = add_variable

    @property
    def variables(self):
        return list(self._variables)

    def reset_state(self):
        for v in self._variables:
            v.assign(np.zeros(v._value.shape, v._value.dtype))

    def update_state(self, *args, **kwargs):
        raise NotImplementedError

    def result(self):
        raise NotImplementedError

    def __call__(self, *args, **kwargs):
        self.update_state(*args, **kwargs)
        return self.result()

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype}

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}>"


class Mean(Metric):
    """The (weighted) mean of every value passed to ``update_state``."""

    def __init__(self, name="mean", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_variable(name="total")
        self.count = self.add_variable(name="count")

    def update_state(self, values, sample_weight=None):
        dt = np.dtype(self.dtype)
        values = _np(values).astype(dt)
        if sample_weight is None:
            self.total.assign(self.total._value + np.sum(values, dtype=dt))
            self.count.assign(self.count._value + dt.type(values.size))
            return
        sw = _np(sample_weight).astype(dt)
        while values.ndim > sw.ndim and values.ndim > 1:   # per-sample values, as Keras reduces them
            values = np.mean(values, axis=-1)
        sw = np.broadcast_to(sw, values.shape)
        self.total.assign(self.total._value + np.sum(values * sw, dtype=dt))
        self.count.assign(self.count._value + np.sum(sw, dtype=dt))

    def result(self):
        count = self.count._value
        return constant(self.total._value / count if count else np.zeros((), self.total._value.dtype)[()])


class Sum(Metric):
    def __init__(self, name="sum", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_variable(name="total")

    def update_state(self, values, sample_weight=None):
        values = _np(values).astype(self.dtype)
        if sample_weight is not None:
            values = values * _np(sample_weight).astype(self.dtype)
        self.total.assign(self.total._value + np.sum(values, dtype=self.dtype))

    def result(self):
        return constant(self.total._value)


class MeanMetricWrapper(Mean):
    """The running mean of ``fn(y_true, y_pred)``, one value per sample."""

    def __init__(self, fn, name=None, dtype=None, **kwargs):
        super().__init__(name=name or getattr(fn, "__name__", "metric"), dtype=dtype)
        self._fn = fn
        self._fn_kwargs = kwargs

    def update_state(self, y_true, y_pred, sample_weight=None):
        values = self._fn(y_true, y_pred, **self._fn_kwargs)
        super().update_state(values, sample_weight)


class MeanSquaredError(MeanMetricWrapper):
    def __init__(self, name="mean_squared_error", dtype=None):
        super().__init__(losses.mean_squared_error, name=name, dtype=dtype)


class MeanAbsoluteError(MeanMetricWrapper):
    def __init__(self, name="mean_absolute_error", dtype=None):
        super().__init__(losses.mean_absolute_error, name=name, dtype=dtype)


class RootMeanSquaredError(Mean):
    def __init__(self, name="root_mean_squared_error", dtype=None):
        super().__init__(name=name, dtype=dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true, y_pred = losses._prepare(y_true, y_pred)
        super().update_state(np.square(_np(y_pred) - _np(y_true)), sample_weight)

    def result(self):
        return constant(np.sqrt(super().result()._value))


def _accuracy(y_true, y_pred):
    y_true, y_pred = losses._prepare(y_true, y_pred)
    return (_np(y_true) == _np(y_pred)).astype(np.float32)


def binary_accuracy(y_true, y_pred, threshold=0.5):
    y_true, y_pred = losses._prepare(y_true, y_pred)
    pred = (_np(y_pred) > threshold).astype(np.float32)
    return np.mean((_np(y_true) == pred).astype(np.float32), axis=-1)


def categorical_accuracy(y_true, y_pred):
    return (np.argmax(_np(y_true), -1) == np.argmax(_np(y_pred), -1)).astype(np.float32)


def sparse_categorical_accuracy(y_true, y_pred):
    labels = _np(y_true)
    pred = _np(y_pred)
    if labels.ndim == pred.ndim and labels.shape[-1] == 1:
        labels = labels[..., 0]
    return (labels.astype(np.int64) == np.argmax(pred, -1)).astype(np.float32)


class Accuracy(MeanMetricWrapper):
    def __init__(self, name="accuracy", dtype=None):
        super().__init__(_accuracy, name=name, dtype=dtype)


class BinaryAccuracy(MeanMetricWrapper):
    def __init__(self, name="binary_accuracy", dtype=None, threshold=0.5):
        super().__init__(binary_accuracy, name=name, dtype=dtype, threshold=threshold)


class CategoricalAccuracy(MeanMetricWrapper):
    def __init__(self, name="categorical_accuracy", dtype=None):
        super().__init__(categorical_accuracy, name=name, dtype=dtype)


class SparseCategoricalAccuracy(MeanMetricWrapper):
    def __init__(self, name="sparse_categorical_accuracy", dtype=None):
        super().__init__(sparse_categorical_accuracy, name=name, dtype=dtype)


mean_squared_error = mse = losses.mean_squared_error
mean_absolute_error = mae = losses.mean_absolute_error

_BY_NAME = {
    "mse": MeanSquaredError, "mean_squared_error": MeanSquaredError,
    "mae": MeanAbsoluteError, "mean_absolute_error": MeanAbsoluteError,
    "rmse": RootMeanSquaredError, "root_mean_squared_error": RootMeanSquaredError,
    "binary_accuracy": BinaryAccuracy, "categorical_accuracy": CategoricalAccuracy,
    "sparse_categorical_accuracy": SparseCategoricalAccuracy,
}


def get(identifier, loss=None, output_shape=None):
    """A Metric from a name, an instance or a function.  ``'accuracy'`` picks the variant that fits
    the loss, as ``compile`` does: binary for binary crossentropy, sparse for sparse labels."""
    if isinstance(identifier, Metric):
        return identifier
    if isinstance(identifier, str):
        if identifier in ("accuracy", "acc"):
            name = getattr(loss, "name", None) or getattr(loss, "__name__", "") or str(loss)
            if "sparse" in name:
                return SparseCategoricalAccuracy(name=identifier)
            if "binary" in name or (output_shape and output_shape[-1] == 1):
                return BinaryAccuracy(name=identifier)
            if "categorical" in name:
                return CategoricalAccuracy(name=identifier)
            return Accuracy(name=identifier)
        try:
            return _BY_NAME[identifier](name=identifier)
        except KeyError:
            raise ValueError(f"Could not interpret metric identifier: {identifier!r}") from None
    if isinstance(identifier, type):
        return identifier()
    if callable(identifier):
        return MeanMetricWrapper(identifier)
    raise ValueError(f"Could not interpret metric identifier: {identifier!r}")
