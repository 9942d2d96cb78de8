"""``tf.nn``: activations, softmax and the cross-entropy losses, bias_add, dropout, conv2d and pooling."""

import numpy as np

from .engine import errors
from .ops.math_ops import (  # noqa: F401  (re-exported TF names)
    _t, _np, _axis, where, exp, sqrt, tanh, sigmoid, softplus, erf, maximum, minimum, abs,
    reduce_sum, log_sigmoid, softsign, l2_normalize, zeros_like, convert_to_tensor, gather, rsqrt,
    cast,
)
from .ops.math_extra import top_k  # noqa: F401
from .ops.convolution import (  # noqa: F401
    conv2d, depthwise_conv2d, separable_conv2d, max_pool2d, max_pool, avg_pool2d, avg_pool, conv1d, max_pool1d,
    avg_pool1d)
from .rules import activations as _act
from .rules import nn as _nnrules
from .engine.tensor import apply, _TensorBase

__all__ = [
    "relu", "relu6", "leaky_relu", "elu", "selu", "gelu", "silu", "swish", "sigmoid", "tanh",
    "softmax", "log_softmax", "softplus", "softsign", "sigmoid_cross_entropy_with_logits",
    "softmax_cross_entropy_with_logits", "sparse_softmax_cross_entropy_with_logits", "l2_loss",
    "bias_add", "dropout", "l2_normalize", "moments", "log_sigmoid", "top_k", "embedding_lookup",
    "batch_normalization", "weighted_cross_entropy_with_logits", "compute_average_loss",
    "conv2d", "depthwise_conv2d", "separable_conv2d", "max_pool2d", "max_pool", "avg_pool2d", "avg_pool", "conv1d", "max_pool1d", "avg_pool1d",
]


def relu(features, name=None):
    return apply(_act.relu, (_t(features),))


def relu6(features, name=None):
    """min(max(x, 0), 6); the gradient is 1 strictly between 0 and 6 (0 at both ends), as in TF."""
    return apply(_nnrules.relu6, (_t(features),))


def leaky_relu(features, alpha=0.2, name=None):
    x = _t(features)
    return where(np.asarray(x._value) > 0, x, x * alpha)


def elu(features, name=None):
    """x for x > 0, exp(x) - 1 otherwise (the exp branch sees min(x, 0): no inf, no NaN)."""
    x = _t(features)
    neg = apply(np.expm1, (minimum(x, 0.0),))
    return where(np.asarray(x._value) > 0, x, neg)


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def selu(features, name=None):
    """scale * (x for x >= 0, alpha * (exp(x) - 1) otherwise): at 0 the slope is scale, as TF's."""
    x = _t(features)
    neg = apply(np.expm1, (minimum(x, 0.0),)) * _SELU_ALPHA
    return where(np.asarray(x._value) >= 0, x, neg) * _SELU_SCALE


def gelu(features, approximate=False, name=None):
    """x * Phi(x): exact with erf by default, the tanh approximation when ``approximate``."""
    x = _t(features)
    if approximate:
        c = 0.7978845608028654  # sqrt(2 / pi)
        return 0.5 * x * (1.0 + tanh(c * (x + 0.044715 * x * x * x)))
    return 0.5 * x * (1.0 + erf(x * 0.7071067811865476))


def silu(features, beta=1.0, name=None):
    x = _t(features)
    return x * sigmoid(x * beta) if beta != 1.0 else x * sigmoid(x)


swish = silu


def softmax(logits, axis=None, name=None):
    x = _t(logits)
    ax = -1 if axis is None else int(_np(axis))
    return apply(np.exp, (x - apply(_act.logsumexp, (x,), {"axis": ax, "keepdims": True}),))


def log_softmax(logits, axis=None, name=None):
    x = _t(logits)
    ax = -1 if axis is None else int(_np(axis))
    return x - apply(_act.logsumexp, (x,), {"axis": ax, "keepdims": True})


def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """max(x, 0) - x * z + log(1 + exp(-|x|)), written with selects as TF does (exact gradient
    sigmoid(x) - z everywhere, including x = 0)."""
    if labels is None or logits is None:
        raise ValueError("Both labels and logits must be provided.")
    x = _t(logits)
    z = _t(labels, x.dtype) if not isinstance(labels, _TensorBase) else labels
    if tuple(x.shape) != tuple(z.shape):
        raise ValueError(f"logits and labels must have the same shape ({x.shape} vs {z.shape})")
    cond = np.asarray(x._value) >= 0
    relu_logits = where(cond, x, zeros_like(x))
    neg_abs = where(cond, -x, x)
    return relu_logits - x * z + apply(np.log1p, (exp(neg_abs),))


def softmax_cross_entropy_with_logits(labels, logits, axis=-1, name=None):
    """-sum(labels * log_softmax(logits)) per example; gradient softmax - labels for logits."""
    x = _t(logits)
    z = _t(labels, x.dtype) if not isinstance(labels, _TensorBase) else labels
    if tuple(x.shape) != tuple(z.shape):
        raise errors.InvalidArgumentError(
            f"logits and labels must be broadcastable: logits_size={list(x.shape)} "
            f"labels_size={list(z.shape)}")
    return apply(_nnrules.softmax_cross_entropy, (z, x), {"axis": int(axis)})


def sparse_softmax_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """logsumexp(logits) - logits[label] per example (labels are class indices)."""
    x = _t(logits)
    idx = np.asarray(_np(labels))
    if idx.dtype.kind not in "iu":
        raise ValueError(f"labels must be integer class indices, got dtype {idx.dtype}")
    if tuple(idx.shape) != tuple(x.shape[:-1]):
        raise ValueError(
            f"`labels.shape` must equal `logits.shape` except for the last dimension. Received: "
            f"labels.shape={tuple(idx.shape)} and logits.shape={tuple(x.shape)}")
    c = x.shape[-1]
    if idx.size and (idx.min() < 0 or idx.max() >= c):
        bad = idx[(idx < 0) | (idx >= c)].reshape(-1)[0]
        raise errors.InvalidArgumentError(
            f"Received a label value of {bad} which is outside the valid range of [0, {c}).")
    lse = apply(_act.logsumexp, (x,), {"axis": -1})
    picked = x[tuple(np.indices(idx.shape)) + (idx,)]
    return lse - picked


def l2_loss(t, name=None):
    t = _t(t)
    return reduce_sum(t * t) / 2.0


def bias_add(value, bias, data_format=None, name=None):
    value, bias = _t(value), _t(bias)
    if bias.ndim != 1:
        raise ValueError(f"bias must be 1-D, got shape {bias.shape}")
    if data_format is not None and data_format.startswith("NC") and value.ndim > 2:
        bias = apply(np.reshape, (bias, (-1,) + (1,) * (value.ndim - 2)))
    elif value.shape[-1] != bias.shape[0]:
        raise errors.InvalidArgumentError(
            f"Must provide as many biases as the last dimension of the input tensor: "
            f"{list(bias.shape)} vs. {list(value.shape)}")
    return value + bias


def dropout(x, rate, noise_shape=None, seed=None, name=None):
    """Zero each element with probability ``rate``, scale the rest by 1 / (1 - rate)."""
    from . import random as _random
    x = _t(x)
    rate = float(_np(rate))
    if not 0 <= rate < 1:
        raise ValueError(f"rate must be a scalar tensor or a float in the range [0, 1), got {rate}")
    if rate == 0:
        return x
    shape = tuple(x.shape) if noise_shape is None else tuple(
        d if n is None else int(n) for d, n in zip(x.shape, noise_shape))
    keep = _random._generator(seed).random(shape) >= rate
    scale = np.asarray(keep / (1.0 - rate), dtype=x._value.dtype)
    return x * scale


def moments(x, axes, shift=None, keepdims=False, name=None):
    x = _t(x)
    mean = apply(np.mean, (x,), {"axis": _axis(axes), "keepdims": True})
    var = apply(np.mean, ((x - mean) * (x - mean),), {"axis": _axis(axes), "keepdims": keepdims})
    if not keepdims:
        mean = apply(np.squeeze, (mean,), {"axis": _axis(axes)})
    return mean, var


def embedding_lookup(params, ids, max_norm=None, name=None):
    """Rows of ``params`` (``tf.gather``): a variable's gradient is an ``IndexedSlices``."""
    if max_norm is not None:
        raise NotImplementedError("tf.nn.embedding_lookup: max_norm is not supported")
    return gather(params, ids)


def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    """``(x - mean) * scale / sqrt(variance + eps) + offset``, arranged as TF computes it."""
    x = _t(x)
    inv = rsqrt(_t(variance) + variance_epsilon)
    if scale is not None:
        inv = inv * scale
    shift = offset - _t(mean) * inv if offset is not None else -_t(mean) * inv
    return x * cast(inv, x.dtype) + cast(shift, x.dtype)


def weighted_cross_entropy_with_logits(labels, logits, pos_weight, name=None):
    """Sigmoid cross-entropy with the positive term weighted by ``pos_weight`` (TF's stable form)."""
    x = _t(logits)
    z = _t(labels, x.dtype) if not isinstance(labels, _TensorBase) else labels
    if tuple(x.shape) != tuple(z.shape):
        raise ValueError(f"logits and labels must have the same shape ({x.shape} vs {z.shape})")
    log_weight = 1.0 + (pos_weight - 1.0) * z
    return (1.0 - z) * x + log_weight * (apply(np.log1p, (exp(-abs(x)),)) + relu(-x))


def compute_average_loss(per_example_loss, sample_weight=None, global_batch_size=None):
    """The summed (weighted) per-example loss over the global batch size (default: this batch's)."""
    loss = _t(per_example_loss)
    if sample_weight is not None:
        loss = loss * sample_weight
    if global_batch_size is None:
        global_batch_size = loss.shape[0] if loss.ndim else 1
    return reduce_sum(loss) / cast(global_batch_size, loss.dtype)
