"""``tf.nn.conv2d``, ``depthwise_conv2d``, ``separable_conv2d`` and 2-D pooling (``max_pool2d``/``max_pool``,
``avg_pool2d``/``avg_pool``) on NHWC batches, and their 1-D forms on NWC batches (a 2-D op over a height of 1):
TF's arguments (``strides``/``ksize``/``dilations`` as an int or a list of 1, 2 or 4 ints, ``padding`` 'SAME',
'VALID' or explicit pairs) turned into the primitives of ``runtime.rules.conv``, whose rules give gradients of
every order.
"""

import numpy as np

from ..engine import errors
from .math_ops import _t
from ..rules import conv as _conv
from ..engine.tensor import apply

__all__ = ["conv2d", "depthwise_conv2d", "separable_conv2d", "max_pool2d", "max_pool", "avg_pool2d", "avg_pool",
           "conv1d", "max_pool1d", "avg_pool1d"]


def _pair(value, what, op, default=1):
    """TF's int / [n] / [h, w] / [1, h, w, 1] argument as (h, w)."""
    if value is None:
        return (default, default)
    value = [int(v) for v in np.ravel(np.asarray(value))]
    if len(value) == 1:
        return (value[0], value[0])
    if len(value) == 2:
        return tuple(value)
    if len(value) == 4:
        if value[0] != 1 or value[3] != 1:
            raise errors.InvalidArgumentError(
                f"{op}: {what} in the batch and depth dimensions must be 1 (NHWC), got {value}")
        return (value[1], value[2])
    raise errors.InvalidArgumentError(f"{op}: {what} must be an int or a list of 1, 2 or 4 ints, got {value}")


def _check_input(x_shape, op, data_format):
    if data_format not in (None, "NHWC"):
        raise errors.InvalidArgumentError(
            f"{op}: only the NHWC data format is supported (TF's CPU kernels support no other); "
            f"transpose the input with tf.transpose(x, [0, 2, 3, 1])")
    if len(x_shape) != 4:
        raise ValueError(f"{op}: the input must be 4-D [batch, height, width, channels], got shape {x_shape}")


def _pads(padding, op, in_hw, ksize, strides, dilations, explicit=True):
    if isinstance(padding, str):
        if padding.upper() not in ("SAME", "VALID"):
            raise ValueError(f"{op}: padding must be 'SAME' or 'VALID', got {padding!r}")
        return _conv.padding_pairs(padding, in_hw, ksize, strides, dilations)
    pairs = [tuple(int(v) for v in pair) for pair in padding]
    if not explicit or len(pairs) != 4 or pairs[0] != (0, 0) or pairs[3] != (0, 0):
        raise ValueError(f"{op}: padding must be 'SAME', 'VALID'" + (
            " or 4 pairs [[0, 0], [top, bottom], [left, right], [0, 0]]" if explicit else "") + f", got {padding!r}")
    return (pairs[1], pairs[2])


def _check_output(op, in_hw, ksize, strides, dilations, pads):
    for size, k, s, d, (a, b) in zip(in_hw, ksize, strides, dilations, pads):
        if _conv.output_size(size + a + b, k, s, d) <= 0:
            raise errors.InvalidArgumentError(
                f"{op}: computed output size would be negative: the window ({k}, dilation {d}) is larger "
                f"than the padded input ({size + a + b}); use padding='SAME' or a smaller window")


def conv2d(input, filters, strides, padding, data_format="NHWC", dilations=None, name=None):
    """TF's 2-D cross-correlation: filters are [height, width, in_channels, out_channels]."""
    return _convolve("conv2d", input, filters, strides, padding, data_format, dilations)


def depthwise_conv2d(input, filter, strides, padding, data_format=None, dilations=None, name=None):
    """Each input channel convolved with its own filters: ``filter`` is [height, width, in_channels,
    channel_multiplier] and output channel ``c * channel_multiplier + k`` reads input channel ``c``."""
    return _convolve("depthwise_conv2d", input, filter, strides, padding, data_format, dilations)


def separable_conv2d(input, depthwise_filter, pointwise_filter, strides, padding, data_format=None,
                     dilations=None, name=None):
    """``depthwise_conv2d`` followed by a 1x1 ``conv2d`` with ``pointwise_filter``
    [1, 1, in_channels * channel_multiplier, out_channels]."""
    depthwise = depthwise_conv2d(input, depthwise_filter, strides, padding, data_format, dilations)
    return conv2d(depthwise, pointwise_filter, (1, 1), "VALID")


def _convolve(op, input, filters, strides, padding, data_format, dilations):
    x, w = _t(input), _t(filters)
    st, pads, dl = conv_config(op, tuple(x.shape), tuple(w.shape), strides, padding, data_format, dilations)
    if w.dtype != x.dtype:
        raise errors.InvalidArgumentError(
            f"{op}: input and filters must have the same dtype, got {x.dtype.name} and {w.dtype.name}; "
            f"use tf.cast")
    return apply(_conv.conv2d, (x, w, st, pads, dl, op == "depthwise_conv2d"))


def conv_config(op, x_shape, w_shape, strides, padding, data_format=None, dilations=None):
    """``(strides, pads, dilations)`` of ``runtime.rules.conv.conv2d`` for TF's arguments to ``op``
    (``conv2d`` or ``depthwise_conv2d``), checked as TF checks them; shapes only, so generated
    code checks a call the same way (``transpiler/frontend/tfnn.py``)."""
    _check_input(x_shape, op, data_format)
    if len(w_shape) != 4 or w_shape[2] != x_shape[3]:
        last = "channel_multiplier" if op == "depthwise_conv2d" else "out_channels"
        raise errors.InvalidArgumentError(
            f"{op}: filters must be [height, width, {x_shape[3]}, {last}] for an input with "
            f"{x_shape[3]} channels, got shape {tuple(w_shape)}")
    st, dl = _pair(strides, "strides", op), _pair(dilations, "dilations", op)
    if op == "depthwise_conv2d" and max(dl) > 1 and max(st) > 1:
        raise errors.InvalidArgumentError(
            f"{op}: dilations {list(dl)} need strides of 1, got {list(st)} (TF only warns, and its result is "
            f"not a strided dilated convolution); apply the dilated convolution with strides 1, then slice "
            f"y[:, ::{st[0]}, ::{st[1]}] (for padding 'VALID')")
    in_hw, ksize = tuple(x_shape[1:3]), tuple(w_shape[:2])
    pads = _pads(padding, op, in_hw, ksize, st, dl)
    _check_output(op, in_hw, ksize, st, dl, pads)
    return st, pads, dl


def pool_config(op, x_shape, ksize, strides, padding, data_format, explicit):
    """``(ksize, strides, pads)`` of the pooling primitives of ``runtime.rules.conv`` for TF's
    arguments, checked as TF checks them (shapes only, as ``conv_config``)."""
    _check_input(x_shape, op, data_format)
    k, st = _pair(ksize, "ksize", op), _pair(strides, "strides", op)
    in_hw = tuple(x_shape[1:3])
    pads = _pads(padding, op, in_hw, k, st, (1, 1), explicit)
    _check_output(op, in_hw, k, st, (1, 1), pads)
    if any(a >= kk or b >= kk for (a, b), kk in zip(pads, k)):
        raise errors.InvalidArgumentError(f"{op}: padding {pads} must be smaller than the window {k}")
    return k, st, pads


def _pool(primitive, op, input, ksize, strides, padding, data_format, explicit):
    x = _t(input)
    k, st, pads = pool_config(op, tuple(x.shape), ksize, strides, padding, data_format, explicit)
    return apply(primitive, (x, k, st, pads))


def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):
    """The largest entry of each window (padding never wins); the gradient goes to that entry
    (the first in row-major order on ties)."""
    return _pool(_conv.max_pool2d, "max_pool2d", input, ksize, strides, padding, data_format, True)


def avg_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):
    """The mean of each window's entries that are not padding (TF's 'SAME' average)."""
    return _pool(_conv.avg_pool2d, "avg_pool2d", input, ksize, strides, padding, data_format, False)


def _two_d(op, input):
    if len(_t(input).shape) != 4:
        raise ValueError(f"tf.nn.{op}: only 4-D (2-D pooling, NHWC) inputs are supported here, got shape "
                         f"{_t(input).shape}")


def max_pool(input, ksize, strides, padding, data_format=None, name=None):
    """``tf.nn.max_pool`` for 4-D inputs (2-D pooling)."""
    _two_d("max_pool", input)
    return max_pool2d(input, ksize, strides, padding, data_format or "NHWC", name)


def avg_pool(input, ksize, strides, padding, data_format=None, name=None):
    """``tf.nn.avg_pool`` for 4-D inputs (2-D pooling)."""
    _two_d("avg_pool", input)
    return avg_pool2d(input, ksize, strides, padding, data_format or "NHWC", name)


# --- 1-D: the 2-D ops over a height of 1 ----------------------------------------------------

def _single(value, what, op):
    """TF's 1-D int / [n] / [1, n, 1] argument as an int."""
    value = [int(v) for v in np.ravel(np.asarray(value))]
    if len(value) == 1:
        return value[0]
    if len(value) == 3 and value[0] == 1 and value[2] == 1:
        return value[1]
    raise errors.InvalidArgumentError(f"{op}: {what} must be an int or a list of 1 or 3 ints "
                                      f"(1 in the batch and channel dimensions), got {value}")


def check_nwc(shape, op, data_format):
    """A 1-D op's input must be [batch, width, channels] (also checked by the transpiler's tf.nn twins)."""
    if data_format not in (None, "NWC"):
        raise errors.InvalidArgumentError(f"{op}: only the NWC data format is supported; "
                                          f"transpose the input with tf.transpose(x, [0, 2, 1])")
    if len(shape) != 3:
        raise ValueError(f"{op}: the input must be 3-D [batch, width, channels], got shape {tuple(shape)}")


def _nwc(x, op, data_format):
    check_nwc(x.shape, op, data_format)
    return apply(np.expand_dims, (x, 1))


def conv1d(input, filters, stride, padding, data_format="NWC", dilations=None, name=None):
    """TF's 1-D cross-correlation: filters are [width, in_channels, out_channels]."""
    x, w = _t(input), _t(filters)
    if len(w.shape) != 3:
        raise errors.InvalidArgumentError(f"conv1d: filters must be [width, in_channels, out_channels], "
                                          f"got shape {w.shape}")
    if not isinstance(padding, str):
        raise ValueError(f"conv1d: padding must be 'SAME' or 'VALID', got {padding!r}")
    out = conv2d(_nwc(x, "conv1d", data_format), apply(np.expand_dims, (w, 0)),
                 (1, _single(stride, "stride", "conv1d")), padding,
                 dilations=(1, 1 if dilations is None else _single(dilations, "dilations", "conv1d")))
    return apply(np.squeeze, (out,), {"axis": 1})


def max_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):
    x = _nwc(_t(input), "max_pool1d", data_format)
    out = max_pool2d(x, (1, _single(ksize, "ksize", "max_pool1d")),
                     (1, _single(strides, "strides", "max_pool1d")), _one_d_padding(padding, "max_pool1d"))
    return apply(np.squeeze, (out,), {"axis": 1})


def avg_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):
    x = _nwc(_t(input), "avg_pool1d", data_format)
    out = avg_pool2d(x, (1, _single(ksize, "ksize", "avg_pool1d")),
                     (1, _single(strides, "strides", "avg_pool1d")), _one_d_padding(padding, "avg_pool1d"))
    return apply(np.squeeze, (out,), {"axis": 1})


def _one_d_padding(padding, op):
    if not isinstance(padding, str):
        raise ValueError(f"{op}: padding must be 'SAME' or 'VALID', got {padding!r}")
    return padding
