"""Specs for the convolution and pooling rules (runtime/rules/conv.py): NHWC batches, every padding
mode, strides and dilations, plain and depthwise convolution drawn by hypothesis."""

import numpy as np
from hypothesis import strategies as st

from runtime.rules import conv as C

from . import spec, values


def _geometry(draw, dilate=True):
    n, h, w, c = draw(st.integers(1, 2)), draw(st.integers(3, 5)), draw(st.integers(3, 5)), draw(st.integers(1, 2))
    ksize = (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    strides = (draw(st.integers(1, 2)), draw(st.integers(1, 2)))
    dilations = (draw(st.integers(1, 2)), draw(st.integers(1, 2))) if dilate else (1, 1)
    padding = draw(st.sampled_from(["SAME", "VALID", "explicit"]))
    if padding == "explicit":
        padding = ((draw(st.integers(0, 1)), draw(st.integers(0, 2))), (draw(st.integers(0, 2)), draw(st.integers(0, 1))))
    pads = C.padding_pairs(padding, (h, w), ksize, strides, dilations)
    # at least one output: a kernel no wider than the padded input
    ksize = tuple(min(k, 1 + (size + sum(pair) - 1) // d) for k, size, pair, d in zip(ksize, (h, w), pads, dilations))
    return (n, h, w, c), ksize, strides, pads, dilations


@spec(C.conv2d, argnums=(0, 1))
def _conv2d(draw, rng):
    shape, ksize, strides, pads, dilations = _geometry(draw)
    depthwise = draw(st.booleans())      # tf.nn.depthwise_conv2d: filters [kh, kw, c, multiplier]
    w = values(rng, ksize + (shape[3], draw(st.integers(1, 3))))
    return [values(rng, shape), w, strides, pads, dilations, depthwise], {}


def _adjoint_of_conv2d(input_grad):
    """Arguments of conv2d_input_grad (g, w, x_shape, ...) or conv2d_filter_grad (x, g, w_shape, ...)."""
    def make(draw, rng):
        args, _ = _conv2d(draw, rng)
        x, w = args[0], args[1]
        g = values(rng, np.shape(C.conv2d(*args)))
        return ([g, w, np.shape(x)] if input_grad else [x, g, np.shape(w)]) + args[2:], {}
    return make


spec(C.conv2d_input_grad, argnums=(0, 1))(_adjoint_of_conv2d(True))
spec(C.conv2d_filter_grad, argnums=(0, 1))(_adjoint_of_conv2d(False))


def _pool(draw, rng):
    shape, ksize, strides, pads, _ = _geometry(draw, dilate=False)
    pads = tuple((min(a, k - 1), min(b, k - 1)) for (a, b), k in zip(pads, ksize))   # padding inside a window
    return values(rng, shape), ksize, strides, pads


@spec(C.avg_pool2d)
def _avg_pool2d(draw, rng):
    return list(_pool(draw, rng)), {}


@spec(C.avg_pool2d_grad)
def _avg_pool2d_grad(draw, rng):
    x, ksize, strides, pads = _pool(draw, rng)
    g = values(rng, np.shape(C.avg_pool2d(x, ksize, strides, pads)))
    return [g, np.shape(x), ksize, strides, pads], {}


@spec(C.max_pool2d)
def _max_pool2d(draw, rng):
    return list(_pool(draw, rng)), {}     # continuous random values: no ties


@spec(C.max_pool2d_gather, argnums=(0, 1))
def _max_pool2d_gather(draw, rng):
    x, ksize, strides, pads = _pool(draw, rng)
    return [values(rng, np.shape(x)), x, ksize, strides, pads], {}


@spec(C.max_pool2d_scatter, argnums=(0, 1))
def _max_pool2d_scatter(draw, rng):
    x, ksize, strides, pads = _pool(draw, rng)
    g = values(rng, np.shape(C.max_pool2d(x, ksize, strides, pads)))
    return [g, x, ksize, strides, pads], {}
