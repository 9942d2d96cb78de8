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
    """Keras 3's composition, so that x at ``threshold`` or at ``max_value`` gets its gradient
    (0 at the threshold, 0 at max_value 6 (relu6), 1 at another max_value (a clip's bound))."""
    x = _t(x)
    if negative_slope == 0.0 and max_value is None and threshold == 0.0:
        return _prim.relu(x)
    if negative_slope != 0.0 and max_value is None and threshold == 0.0:
        return leaky_relu(x, negative_slope)
    negative_part = _prim.relu(threshold - x) if negative_slope != 0.0 else None
    clip_max = max_value is not None
    if threshold != 0.0:
        y = np.where(x > threshold, x, np.zeros_like(x))
    elif max_value == 6:
        y, clip_max = _nn().relu6(x), False
    else:
        y = _prim.relu(x)
    if clip_max:
        y = np.clip(y, 0.0, max_value)
    if negative_part is not None:
        y = y - negative_slope * negative_part
    return y


def _nn():
    from .. import nn
    return nn


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
    return _nn().selu(_t(x))


def silu(x):
    x = _t(x)
    return x * _prim.sigmoid(x)


swish = silu


def relu6(x):
    return _nn().relu6(_t(x))


def gelu(x, approximate=False):
    return _nn().gelu(_t(x), approximate=approximate)


# The rest as Keras 3 composes them from TF ops, so values and gradients at their kinks are TF's
# (tf.maximum's tie to its first argument, tf.where's selected branch, relu6's open interval).

def _tf():
    from ..ops import math_ops
    return math_ops


def hard_sigmoid(x):
    return _nn().relu6(_t(x) + 3.0) / 6.0


def hard_silu(x):
    x = _t(x)
    return x * hard_sigmoid(x)


hard_swish = hard_silu


def hard_tanh(x):
    return _tf().clip_by_value(_t(x), -1.0, 1.0)


def mish(x):
    x = _t(x)
    return x * np.tanh(softplus(x))


def celu(x, alpha=1.0):
    x, m = _t(x), _tf()
    return m.maximum(x, 0.0) + alpha * np.expm1(m.minimum(x, 0.0) / alpha)


def glu(x, axis=-1):
    x = _t(x)
    if x.shape[axis] % 2:
        raise ValueError(f"axis size must be divisible by 2. Received: x.shape={tuple(x.shape)} with axis={axis}")
    a, b = _tf().split(x, 2, axis=axis)
    return a * _prim.sigmoid(b)


def hard_shrink(x, threshold=0.5):
    x, m = _t(x), _tf()
    return m.where(m.abs(x) > threshold, x, m.zeros_like(x))


def soft_shrink(x, threshold=0.5):
    x, m = _t(x), _tf()
    return m.where(x > threshold, x - threshold, m.where(x < -threshold, x + threshold, m.zeros_like(x)))


def tanh_shrink(x):
    x = _t(x)
    return x - np.tanh(x)


def log_sigmoid(x):
    return -_prim.softplus(-_t(x))


def log_softmax(x, axis=-1):
    x = _t(x)
    return x - _prim.logsumexp(x, axis=axis, keepdims=True)


def softmax(x, axis=-1):
    return np.exp(log_softmax(x, axis=axis))


_BY_NAME = {f.__name__: f for f in (linear, relu, leaky_relu, sigmoid, tanh, softplus, softsign,
                                     exponential, elu, selu, silu, softmax, log_softmax, relu6, gelu,
                                     hard_sigmoid, hard_silu, hard_tanh, mish, celu, glu, hard_shrink,
                                     soft_shrink, tanh_shrink, log_sigmoid)}
_BY_NAME["swish"] = silu
_BY_NAME["hard_swish"] = hard_silu


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
