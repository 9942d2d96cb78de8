"""numpy twins of ``tf.nn.*`` functions (see ops.py for what a twin is and why).

Convolution and pooling call the primitives of ``runtime.rules.conv`` -- the ones the tape
records for ``tf.nn.conv2d`` and the pools -- with TF's ``strides``/``ksize``/``padding``
arguments turned into explicit pairs by ``conv2d_config_``/``pool_config_``, which check them
as ``runtime/ops/convolution.py`` does and carry no gradient.
"""

import numpy as np

from runtime.ops import convolution as _tfconv
from runtime.rules import activations, conv, special
from runtime.rules import nn as nnrules
from runtime.rules.registry import nondifferentiable

from .ops import axis_

__all__ = ["conv2d_config_", "pool_config_", "conv2d", "depthwise_conv2d", "separable_conv2d", "max_pool2d", "max_pool", "avg_pool2d", "avg_pool",
           "one_d_", "conv1d", "max_pool1d", "avg_pool1d", "softmax", "log_softmax", "leaky_relu",
           "elu", "selu", "gelu", "silu", "l2_loss", "bias_add", "moments", "batch_normalization",
           "sigmoid_cross_entropy_with_logits", "weighted_cross_entropy_with_logits",
           "softmax_cross_entropy_with_logits", "sparse_softmax_cross_entropy_with_logits",
           "compute_average_loss", "embedding_lookup"]


# --- convolution and pooling --------------------------------------------------------------------

def conv2d_config_(x, w, strides, padding, data_format="NHWC", dilations=None, op="conv2d"):
    """(strides, pads, dilations) of ``runtime.rules.conv.conv2d`` for TF's arguments."""
    return _tfconv.conv_config(op, np.shape(x), np.shape(w), strides, padding, data_format, dilations)


def pool_config_(x, ksize, strides, padding, data_format, op, explicit):
    """(ksize, strides, pads) of the pooling primitives of ``runtime.rules.conv``."""
    return _tfconv.pool_config(op, np.shape(x), ksize, strides, padding, data_format, explicit)


nondifferentiable(conv2d_config_, pool_config_)


def conv2d(input, filters, strides, padding, data_format="NHWC", dilations=None, name=None):
    st, pads, dl = conv2d_config_(input, filters, strides, padding, data_format, dilations)
    return conv.conv2d(input, filters, st, pads, dl)


def depthwise_conv2d(input, filter, strides, padding, data_format=None, dilations=None, name=None):
    st, pads, dl = conv2d_config_(input, filter, strides, padding, data_format, dilations, "depthwise_conv2d")
    return conv.conv2d(input, filter, st, pads, dl, True)


def separable_conv2d(input, depthwise_filter, pointwise_filter, strides, padding, data_format=None,
                     dilations=None, name=None):
    return conv2d(depthwise_conv2d(input, depthwise_filter, strides, padding, data_format, dilations),
                  pointwise_filter, (1, 1), "VALID")


def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):
    k, st, pads = pool_config_(input, ksize, strides, padding, data_format, "max_pool2d", True)
    return conv.max_pool2d(input, k, st, pads)


def max_pool(input, ksize, strides, padding, data_format=None, name=None):
    k, st, pads = pool_config_(input, ksize, strides, padding, data_format, "max_pool", True)
    return conv.max_pool2d(input, k, st, pads)


def avg_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):
    k, st, pads = pool_config_(input, ksize, strides, padding, data_format, "avg_pool2d", False)
    return conv.avg_pool2d(input, k, st, pads)


def avg_pool(input, ksize, strides, padding, data_format=None, name=None):
    k, st, pads = pool_config_(input, ksize, strides, padding, data_format, "avg_pool", False)
    return conv.avg_pool2d(input, k, st, pads)


def one_d_(x, op, data_format, *widths):
    """Checks a 1-D op's input; TF's 1-D int / [n] / [1, n, 1] arguments as the 2-D ops' (1, n)."""
    _tfconv.check_nwc(np.shape(x), op, data_format)
    return tuple((1, 1 if w is None else _tfconv._single(w, "argument", op)) for w in widths)


nondifferentiable(one_d_)


def conv1d(input, filters, stride, padding, data_format="NWC", dilations=None, name=None):
    """conv2d over a height of 1."""
    st, dl = one_d_(input, "conv1d", data_format, stride, dilations)
    out = conv2d(np.expand_dims(input, 1), np.expand_dims(filters, 0), st, padding, dilations=dl)
    return np.squeeze(out, axis=1)


def max_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):
    k, st = one_d_(input, "max_pool1d", data_format, ksize, strides)
    return np.squeeze(max_pool2d(np.expand_dims(input, 1), k, st, padding), axis=1)


def avg_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):
    k, st = one_d_(input, "avg_pool1d", data_format, ksize, strides)
    return np.squeeze(avg_pool2d(np.expand_dims(input, 1), k, st, padding), axis=1)


# --- activations and losses ---------------------------------------------------------------------

def softmax(logits, axis=None, name=None):
    ax = -1 if axis is None else axis
    return np.exp(logits - activations.logsumexp(logits, axis=ax, keepdims=True))


def log_softmax(logits, axis=None, name=None):
    ax = -1 if axis is None else axis
    return logits - activations.logsumexp(logits, axis=ax, keepdims=True)


def leaky_relu(features, alpha=0.2, name=None):
    return np.where(features > 0, features, features * alpha)


def elu(features, name=None):
    """x for x > 0, exp(x) - 1 otherwise (the exp sees min(x, 0): no overflow, as the runtime)."""
    return np.where(features > 0, features, np.expm1(np.minimum(features, 0.0)))


def selu(features, name=None):
    alpha = 1.6732632423543772848170429916717
    scale = 1.0507009873554804934193349852946
    return np.where(features > 0, features, np.expm1(np.minimum(features, 0.0)) * alpha) * scale


def gelu(features, approximate=False, name=None):
    if approximate:
        c = 0.7978845608028654                      # sqrt(2 / pi)
        return 0.5 * features * (1.0 + np.tanh(c * (features + 0.044715 * features * features * features)))
    return 0.5 * features * (1.0 + special.erf(features * 0.7071067811865476))


def silu(features, beta=1.0, name=None):
    return features * activations.sigmoid(features * beta)


def l2_loss(t, name=None):
    return np.sum(t * t) / 2.0


def bias_add(value, bias, data_format=None, name=None):
    """``value + bias`` along the channel axis: the last one, or axis 1 for an 'NC...' format."""
    if data_format is not None and data_format.startswith("NC") and np.ndim(value) > 2:
        bias = np.reshape(bias, (-1,) + (1,) * (np.ndim(value) - 2))
    return value + bias


def moments(x, axes, shift=None, keepdims=False, name=None):
    mean = np.mean(x, axis=axis_(axes), keepdims=True)
    variance = np.mean((x - mean) * (x - mean), axis=axis_(axes), keepdims=keepdims)
    if not keepdims:
        mean = np.squeeze(mean, axis=axis_(axes))
    return mean, variance


def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    inv = 1.0 / np.sqrt(variance + variance_epsilon)
    if scale is not None:
        inv = inv * scale
    if offset is not None:
        return x * inv + (offset - mean * inv)
    return x * inv - mean * inv


def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """max(x, 0) - x * z + log1p(exp(-|x|)), with selects as TF writes it (gradient sigmoid(x) - z,
    also at x = 0)."""
    positive = logits >= 0
    relu_logits = np.where(positive, logits, 0.0)
    neg_abs = np.where(positive, -logits, logits)
    return relu_logits - logits * labels + np.log1p(np.exp(neg_abs))


def weighted_cross_entropy_with_logits(labels, logits, pos_weight, name=None):
    """Sigmoid cross-entropy with the positive term weighted (TF's stable form)."""
    log_weight = 1.0 + (pos_weight - 1.0) * labels
    return (1.0 - labels) * logits + log_weight * (np.log1p(np.exp(-np.abs(logits))) + np.maximum(-logits, 0.0))


def softmax_cross_entropy_with_logits(labels, logits, axis=-1, name=None):
    return nnrules.softmax_cross_entropy(labels, logits, axis=axis)


def sparse_softmax_cross_entropy_with_logits(labels=None, logits=None, name=None):
    picked = np.take_along_axis(logits, np.expand_dims(labels, -1), axis=-1)
    return activations.logsumexp(logits, axis=-1) - np.squeeze(picked, -1)


def compute_average_loss(per_example_loss, sample_weight=None, global_batch_size=None):
    """The summed (weighted) per-example loss over the global batch size (default: this batch's)."""
    if sample_weight is not None:
        per_example_loss = per_example_loss * sample_weight
    if global_batch_size is None:
        global_batch_size = np.shape(per_example_loss)[0] if np.ndim(per_example_loss) else 1
    return np.sum(per_example_loss) / global_batch_size


def embedding_lookup(params, ids, name=None):
    return np.take(params, ids, axis=0)
