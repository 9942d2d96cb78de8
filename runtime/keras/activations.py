"""``keras.activations``: elementwise functions on tensors, differentiable through the tape.

Each is built from primitives that have derivative rules (numpy ufuncs on tensors and the
``runtime.rules.activations`` primitives), so gradients are exact.
"""

import numpy as np

from ..rules import activations as _prim
from . import backend


def _t(x):
    return backend.as_tensor(x)


def linear(x):
    return _t(x)


def relu(x, negative_slope=0.0, max_value=None, threshold=0.0):
    x = _t(x)
    if negative_slope == 0.0 and max_value is None and threshold == 0.0:
        return _prim.relu(x)
    y = np.where(x > threshold, x, negative_slope * (x - threshold) if negative_slope else np.zeros_like(x))
    if max_value is not None:
        y = np.minimum(y, max_value)
    return y


def leaky_relu(x, negative_slope=0.2):
    x = _t(x)
    return np.where(x > 0, x, negative_slope * x)


def sigmoid(x):
    return _prim.sigmoid(_t(x))


def tanh(x):
    return np.tanh(_t(x))


def softplus(x):
    return _prim.softplus(_t(x))


def softsign(x):
    x = _t(x)
    return x / (np.abs(x) + 1.0)


def exponential(x):
    return np.exp(_t(x))


def elu(x, alpha=1.0):
    x = _t(x)
    return np.where(x > 0, x, alpha * np.expm1(np.minimum(x, 0.0)))


def selu(x):
    alpha, scale = 1.6732632423543772, 1.0507009873554805
    return scale * elu(x, alpha)


def silu(x):
    x = _t(x)
    return x * _prim.sigmoid(x)


swish = silu


def log_softmax(x, axis=-1):
    x = _t(x)
    return x - _prim.logsumexp(x, axis=axis, keepdims=True)


def softmax(x, axis=-1):
    return np.exp(log_softmax(x, axis=axis))


_BY_NAME = {f.__name__: f for f in (linear, relu, leaky_relu, sigmoid, tanh, softplus, softsign,
                                     exponential, elu, selu, silu, softmax, log_softmax)}
_BY_NAME["swish"] = silu


def get(identifier):
    """An activation from a name (``'relu'``), a callable, or None (linear)."""
    if identifier is None:
        return linear
    if isinstance(identifier, str):
        try:
            return _BY_NAME[identifier]
        except KeyError:
            raise ValueError(
                f"Could not interpret activation function identifier: {identifier!r}; known: "
                f"{', '.join(sorted(_BY_NAME))}"
            ) from None
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret activation function identifier: {identifier!r}")


def serialize(fn):
    return getattr(fn, "__name__", repr(fn))
