"""Rules for 2-D convolution and pooling over NHWC batches (``tf.nn.conv2d``, ``max_pool2d``,
``avg_pool2d``, ``depthwise_conv2d``), with TensorFlow's definitions: cross-correlation (the filter is not flipped), a
window's output at ``i`` reading input rows ``i * stride + k * dilation`` of the padded input, and an
average over the window's entries that are not padding.

The primitives take the padding as explicit pairs ``((top, bottom), (left, right))``
(``runtime.nn`` turns TF's ``'SAME'``/``'VALID'`` into them).  Each operation is linear in the
array it is differentiated with respect to (max pooling given its argmax), and each VJP is another
primitive of this module whose own rules are here too, so every order of derivative is exact:

* ``conv2d(x, w)`` is bilinear; its VJPs are ``conv2d_input_grad(g, w)`` and ``conv2d_filter_grad(x, g)``,
  the adjoints of ``x -> conv2d(x, w)`` and ``w -> conv2d(x, w)``;
* ``avg_pool2d`` is linear; ``avg_pool2d_grad`` is its adjoint;
* ``max_pool2d`` reads each window's largest entry (the first in row-major order on ties, as TF's
  gradient kernel does): its VJP scatters to those entries (``max_pool2d_scatter``), its JVP gathers
  from them (``max_pool2d_gather``); which entry is largest is piecewise constant, so neither has a
  derivative with respect to ``x`` (zero).
"""

import numpy as np

from .forms import transposes
from .support import unbroadcast
from .registry import define, primitive


def padding_pairs(padding, in_hw, ksize, strides, dilations):
    """TF's padding as ((top, bottom), (left, right)): 'VALID' pads nothing; 'SAME' pads so there are
    ceil(size / stride) outputs, the odd entry at the bottom/right; explicit pairs pass through."""
    if isinstance(padding, str) and padding.upper() == "VALID":
        return ((0, 0), (0, 0))
    if isinstance(padding, str) and padding.upper() == "SAME":
        pairs = []
        for size, k, s, d in zip(in_hw, ksize, strides, dilations):
            total = max((-(-size // s) - 1) * s + (k - 1) * d + 1 - size, 0)
            pairs.append((total // 2, total - total // 2))
        return tuple(pairs)
    return tuple((int(a), int(b)) for a, b in padding)


def padded_shape(shape, pads):
    n, h, w, c = shape
    (t, b), (l, r) = pads
    return n, h + t + b, w + l + r, c


def output_size(size, k, stride, dilation):
    """Outputs along one axis of a padded input of ``size``: ceil((size - span + 1) / stride)."""
    span = (k - 1) * dilation + 1
    return max(0, -(-(size - span + 1) // stride))


def windows(shape, ksize, strides, pads, dilations):
    """For each kernel offset (p, q): the slices of the padded input its outputs read."""
    _, hp, wp, _ = padded_shape(shape, pads)
    oh = output_size(hp, ksize[0], strides[0], dilations[0])
    ow = output_size(wp, ksize[1], strides[1], dilations[1])
    for p in range(ksize[0]):
        top = p * dilations[0]
        rows = slice(top, top + (oh - 1) * strides[0] + 1, strides[0]) if oh else slice(0, 0)
        for q in range(ksize[1]):
            left = q * dilations[1]
            cols = slice(left, left + (ow - 1) * strides[1] + 1, strides[1]) if ow else slice(0, 0)
            yield p, q, (slice(None), rows, cols)


def pad(x, pads, value=0.0):
    (t, b), (l, r) = pads
    return np.pad(x, ((0, 0), (t, b), (l, r), (0, 0)), constant_values=value)


def crop(xp, shape, pads):
    (t, _), (l, _) = pads
    return xp[:, t:t + shape[1], l:l + shape[2], :]


# --- convolution ----------------------------------------------------------------------------------
# ``depthwise=True`` is tf.nn.depthwise_conv2d: filters [kh, kw, c, m] apply to each input channel on
# its own, output channel c * m + k reading only input channel c.  The window loop is shared; the
# three products below are the only place the two kinds differ.

def window_product(xw, wpq, depthwise):
    """One kernel offset's contribution: xw [..., c] by wpq [c, m] -> [..., m] or [..., c * m]."""
    if depthwise:
        return np.reshape(xw[..., None] * wpq, np.shape(xw)[:-1] + (-1,))
    return np.matmul(xw, wpq)


def window_input_grad(g, wpq, depthwise):
    """The adjoint of ``window_product`` in its input: g [..., m or c * m] -> [..., c]."""
    if depthwise:
        return np.sum(np.reshape(g, np.shape(g)[:-1] + np.shape(wpq)) * wpq, axis=-1)
    return np.matmul(g, np.swapaxes(wpq, -1, -2))


def window_filter_grad(xw, g, depthwise):
    """The adjoint of ``window_product`` in its filter: -> [c, m]."""
    c = np.shape(xw)[-1]
    rows = np.reshape(xw, (-1, c))
    if depthwise:
        return np.sum(rows[:, :, None] * np.reshape(g, (rows.shape[0], c, -1)), axis=0)
    return np.matmul(rows.T, np.reshape(g, (rows.shape[0], -1)))


@primitive
def conv2d(x, w, strides=(1, 1), pads=((0, 0), (0, 0)), dilations=(1, 1), depthwise=False):
    """y[n, i, j, o] = sum_{p, q, c} xpad[n, i*s0 + p*d0, j*s1 + q*d1, c] * w[p, q, c, o]
    (depthwise: y[n, i, j, c*m + k] = sum_{p, q} xpad[n, i*s0 + p*d0, j*s1 + q*d1, c] * w[p, q, c, k])."""
    xp = pad(x, pads)
    out = None
    for p, q, where in windows(np.shape(x), np.shape(w)[:2], strides, pads, dilations):
        term = window_product(xp[where], w[p, q], depthwise)
        out = term if out is None else out + term
    return out


@primitive
def conv2d_input_grad(g, w, x_shape, strides=(1, 1), pads=((0, 0), (0, 0)), dilations=(1, 1), depthwise=False):
    """The adjoint of ``x -> conv2d(x, w)`` applied to ``g`` (TF's Conv2DBackpropInput)."""
    dxp = np.zeros(padded_shape(x_shape, pads), dtype=np.result_type(g, w))
    for p, q, where in windows(x_shape, np.shape(w)[:2], strides, pads, dilations):
        dxp[where] += window_input_grad(g, w[p, q], depthwise)
    return crop(dxp, x_shape, pads)


@primitive
def conv2d_filter_grad(x, g, w_shape, strides=(1, 1), pads=((0, 0), (0, 0)), dilations=(1, 1), depthwise=False):
    """The adjoint of ``w -> conv2d(x, w)`` applied to ``g`` (TF's Conv2DBackpropFilter)."""
    xp = pad(x, pads)
    dw = np.zeros(w_shape, dtype=np.result_type(x, g))
    for p, q, where in windows(np.shape(x), w_shape[:2], strides, pads, dilations):
        dw[p, q] = window_filter_grad(xp[where], g, depthwise)
    return dw


def conv2d_vjp_x(g, ans, x, w, strides=(1, 1), pads=((0, 0), (0, 0)), dilations=(1, 1), depthwise=False):
    return unbroadcast(conv2d_input_grad(g, w, np.shape(x), strides, pads, dilations, depthwise), x)


def conv2d_vjp_w(g, ans, x, w, strides=(1, 1), pads=((0, 0), (0, 0)), dilations=(1, 1), depthwise=False):
    return unbroadcast(conv2d_filter_grad(x, g, np.shape(w), strides, pads, dilations, depthwise), w)


def conv2d_jvp_x(t, ans, x, w, strides=(1, 1), pads=((0, 0), (0, 0)), dilations=(1, 1), depthwise=False):
    return conv2d(t, w, strides, pads, dilations, depthwise)


def conv2d_jvp_w(t, ans, x, w, strides=(1, 1), pads=((0, 0), (0, 0)), dilations=(1, 1), depthwise=False):
    return conv2d(x, t, strides, pads, dilations, depthwise)


# <input_grad(g, w), X> = <g, conv2d(X, w)>: linear in g and in w
def input_grad_vjp_g(gx, ans, g, w, x_shape, strides=(1, 1), pads=((0, 0), (0, 0)), dilations=(1, 1), depthwise=False):
    return unbroadcast(conv2d(gx, w, strides, pads, dilations, depthwise), g)


def input_grad_vjp_w(gx, ans, g, w, x_shape, strides=(1, 1), pads=((0, 0), (0, 0)), dilations=(1, 1), depthwise=False):
    return unbroadcast(conv2d_filter_grad(gx, g, np.shape(w), strides, pads, dilations, depthwise), w)


def input_grad_jvp_g(t, ans, g, w, x_shape, strides=(1, 1), pads=((0, 0), (0, 0)), dilations=(1, 1), depthwise=False):
    return conv2d_input_grad(t, w, x_shape, strides, pads, dilations, depthwise)


def input_grad_jvp_w(t, ans, g, w, x_shape, strides=(1, 1), pads=((0, 0), (0, 0)), dilations=(1, 1), depthwise=False):
    return conv2d_input_grad(g, t, x_shape, strides, pads, dilations, depthwise)


# <filter_grad(x, g), W> = <g, conv2d(x, W)>: linear in x and in g
def filter_grad_vjp_x(gw, ans, x, g, w_shape, strides=(1, 1), pads=((0, 0), (0, 0)), dilations=(1, 1), depthwise=False):
    return unbroadcast(conv2d_input_grad(g, gw, np.shape(x), strides, pads, dilations, depthwise), x)


def filter_grad_vjp_g(gw, ans, x, g, w_shape, strides=(1, 1), pads=((0, 0), (0, 0)), dilations=(1, 1), depthwise=False):
    return unbroadcast(conv2d(x, gw, strides, pads, dilations, depthwise), g)


def filter_grad_jvp_x(t, ans, x, g, w_shape, strides=(1, 1), pads=((0, 0), (0, 0)), dilations=(1, 1), depthwise=False):
    return conv2d_filter_grad(t, g, w_shape, strides, pads, dilations, depthwise)


def filter_grad_jvp_g(t, ans, x, g, w_shape, strides=(1, 1), pads=((0, 0), (0, 0)), dilations=(1, 1), depthwise=False):
    return conv2d_filter_grad(x, t, w_shape, strides, pads, dilations, depthwise)


define(conv2d, vjp=(conv2d_vjp_x, conv2d_vjp_w), jvp=(conv2d_jvp_x, conv2d_jvp_w))
define(conv2d_input_grad, vjp=(input_grad_vjp_g, input_grad_vjp_w), jvp=(input_grad_jvp_g, input_grad_jvp_w))
define(conv2d_filter_grad, vjp=(filter_grad_vjp_x, filter_grad_vjp_g), jvp=(filter_grad_jvp_x, filter_grad_jvp_g))


# --- average pooling: the mean of the window's entries that are not padding -----------------------

def window_counts(shape, ksize, strides, pads):
    """How many real (not padding) entries each output window holds, shaped [1, oh, ow, 1]."""
    ones = pad(np.ones((1,) + tuple(shape[1:3]) + (1,)), pads)
    total = None
    for _, _, where in windows(shape, ksize, strides, pads, (1, 1)):
        total = ones[where] if total is None else total + ones[where]
    return total


@primitive
def avg_pool2d(x, ksize, strides, pads):
    xp = pad(x, pads)
    total = None
    for _, _, where in windows(np.shape(x), ksize, strides, pads, (1, 1)):
        total = xp[where] if total is None else total + xp[where]
    return total / window_counts(np.shape(x), ksize, strides, pads).astype(total.dtype)


@primitive
def avg_pool2d_grad(g, x_shape, ksize, strides, pads):
    """The adjoint of ``avg_pool2d`` applied to ``g`` (TF's AvgPoolGrad)."""
    share = g / window_counts(x_shape, ksize, strides, pads).astype(np.result_type(g))
    dxp = np.zeros(padded_shape(x_shape, pads), dtype=share.dtype)
    for _, _, where in windows(x_shape, ksize, strides, pads, (1, 1)):
        dxp[where] += share
    return crop(dxp, x_shape, pads)


def avg_pool2d_vjp(g, ans, x, ksize, strides, pads):
    return avg_pool2d_grad(g, np.shape(x), ksize, strides, pads)


def avg_pool2d_jvp(t, ans, x, ksize, strides, pads):
    return avg_pool2d(t, ksize, strides, pads)


def avg_pool2d_grad_vjp(gx, ans, g, x_shape, ksize, strides, pads):
    return avg_pool2d(gx, ksize, strides, pads)


def avg_pool2d_grad_jvp(t, ans, g, x_shape, ksize, strides, pads):
    return avg_pool2d_grad(t, x_shape, ksize, strides, pads)


define(avg_pool2d, vjp=(avg_pool2d_vjp,), jvp=(avg_pool2d_jvp,))
define(avg_pool2d_grad, vjp=(avg_pool2d_grad_vjp,), jvp=(avg_pool2d_grad_jvp,))


# --- max pooling: the window's largest entry ------------------------------------------------------

def argmax_offsets(x, ksize, strides, pads):
    """For each output: the kernel offset (p * kw + q) of its window's largest entry, the first on ties."""
    xp = pad(x, pads, -np.inf)
    best, where_best = None, None
    for p, q, where in windows(np.shape(x), ksize, strides, pads, (1, 1)):
        v = xp[where]
        if best is None:
            best, where_best = v, np.zeros(np.shape(v), dtype=np.intp)
        else:
            better = v > best
            best = np.where(better, v, best)
            where_best = np.where(better, p * ksize[1] + q, where_best)
    return best, where_best


@primitive
def max_pool2d(x, ksize, strides, pads):
    return argmax_offsets(x, ksize, strides, pads)[0].astype(np.result_type(x))


@primitive
def max_pool2d_gather(t, x, ksize, strides, pads):
    """``t`` read where ``max_pool2d(x)`` reads ``x``: the JVP of max pooling."""
    offsets = argmax_offsets(x, ksize, strides, pads)[1]
    tp = pad(t, pads)
    out = np.zeros(np.shape(offsets), dtype=np.result_type(t))
    for p, q, where in windows(np.shape(x), ksize, strides, pads, (1, 1)):
        out = np.where(offsets == p * ksize[1] + q, tp[where], out)
    return out


@primitive
def max_pool2d_scatter(g, x, ksize, strides, pads):
    """``g`` added where ``max_pool2d(x)`` read ``x``: the VJP of max pooling (TF's MaxPoolGrad)."""
    offsets = argmax_offsets(x, ksize, strides, pads)[1]
    dxp = np.zeros(padded_shape(np.shape(x), pads), dtype=np.result_type(g))
    for p, q, where in windows(np.shape(x), ksize, strides, pads, (1, 1)):
        dxp[where] += np.where(offsets == p * ksize[1] + q, g, 0)
    return crop(dxp, np.shape(x), pads)


def max_pool2d_vjp(g, ans, x, ksize, strides, pads):
    return max_pool2d_scatter(g, x, ksize, strides, pads)


def max_pool2d_jvp(t, ans, x, ksize, strides, pads):
    return max_pool2d_gather(t, x, ksize, strides, pads)


def no_derivative_in_x(g, ans, t, x, ksize, strides, pads):
    """Which entry is largest does not change under small moves of ``x``: a zero derivative."""
    return unbroadcast(np.zeros(np.shape(x), dtype=np.result_type(g)), x)


def no_tangent_in_x(t, ans, g, x, ksize, strides, pads):
    return np.zeros(np.shape(ans), dtype=np.result_type(t))


define(max_pool2d, vjp=(max_pool2d_vjp,), jvp=(max_pool2d_jvp,))
transposes(max_pool2d_gather, max_pool2d_scatter, "v, x, ksize, strides, pads",
           vjp=(no_derivative_in_x,), jvp=(no_tangent_in_x,))
