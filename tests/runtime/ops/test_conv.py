"""tf.nn.conv2d, depthwise_conv2d, separable_conv2d, max_pool2d/max_pool and avg_pool2d/avg_pool
(runtime/ops/convolution.py): values against loops written from TF's documented definitions, gradients
against central finite differences (first order in both modes, second order through nested tapes)."""

import itertools

import numpy as np
import pytest

import runtime as tf
from runtime import errors
from tests.fd import assert_close, numeric_grad, numeric_jvp


def same_pads(size, k, s, d=1):
    """TF's 'SAME': ceil(size / s) outputs, padding split with the odd one at the end."""
    total = max((-(-size // s) - 1) * s + (k - 1) * d + 1 - size, 0)
    return total // 2, total - total // 2


def windows_of(x, k, s, pads, d=(1, 1), fill=0.0):
    """{(i, j): list of (row, col) input positions (None for padding)} by direct enumeration."""
    n, h, w, c = x.shape
    (t, b), (l, r) = pads
    oh = (h + t + b - (k[0] - 1) * d[0] - 1) // s[0] + 1
    ow = (w + l + r - (k[1] - 1) * d[1] - 1) // s[1] + 1
    out = {}
    for i, j in itertools.product(range(oh), range(ow)):
        cells = []
        for p, q in itertools.product(range(k[0]), range(k[1])):
            row, col = i * s[0] + p * d[0] - t, j * s[1] + q * d[1] - l
            cells.append((p, q, (row, col) if 0 <= row < h and 0 <= col < w else None))
        out[i, j] = cells
    return out, oh, ow


def ref_conv(x, w, s, pads, d):
    win, oh, ow = windows_of(x, w.shape[:2], s, pads, d)
    y = np.zeros((x.shape[0], oh, ow, w.shape[3]))
    for (i, j), cells in win.items():
        for p, q, at in cells:
            if at is not None:
                y[:, i, j] += x[:, at[0], at[1]] @ w[p, q]
    return y


def ref_depthwise(x, w, s, pads, d):
    """TF's depthwise_conv2d: output channel c * m + k is input channel c against w[:, :, c, k]."""
    win, oh, ow = windows_of(x, w.shape[:2], s, pads, d)
    c, m = w.shape[2:]
    y = np.zeros((x.shape[0], oh, ow, c * m))
    for (i, j), cells in win.items():
        for p, q, at in cells:
            if at is not None:
                for ch, k in itertools.product(range(c), range(m)):
                    y[:, i, j, ch * m + k] += x[:, at[0], at[1], ch] * w[p, q, ch, k]
    return y


def ref_pool(x, k, s, pads, how):
    win, oh, ow = windows_of(x, k, s, pads)
    y = np.zeros((x.shape[0], oh, ow, x.shape[3]))
    for (i, j), cells in win.items():
        vals = np.stack([x[:, at[0], at[1]] for _, _, at in cells if at is not None])
        y[:, i, j] = vals.max(axis=0) if how == "max" else vals.mean(axis=0)
    return y


def tf_pads(padding, x, k, s, d=(1, 1)):
    if padding == "VALID":
        return (0, 0), (0, 0)
    if padding == "SAME":
        return same_pads(x.shape[1], k[0], s[0], d[0]), same_pads(x.shape[2], k[1], s[1], d[1])
    return tuple(padding[1]), tuple(padding[2])


RNG = np.random.default_rng(0)
X = RNG.standard_normal((2, 5, 6, 3))
W = RNG.standard_normal((3, 2, 3, 2))
PW = RNG.standard_normal((1, 1, 6, 2))          # separable_conv2d's pointwise filter after W (3 x 2 channels)
CONV = [(1, "SAME", None), (2, "SAME", None), ([1, 2, 1, 1], "VALID", None), (1, "VALID", 2), ((2, 1), "SAME", (1, 2)),
        (1, [[0, 0], [1, 2], [0, 1], [0, 0]], None)]
# depthwise: TF refuses (warns about) dilations > 1 with strides > 1
DEPTHWISE = [c for c in CONV if c[2] is None or c[0] == 1] + [((1, 2), "SAME", None), (1, "SAME", (2, 1))]
POOL = [((2, 2), 2, "VALID"), ((3, 3), 2, "SAME"), ((3, 2), (1, 2), "SAME"), (2, [1, 1, 1, 1], "VALID"),
        ((2, 3), 3, "SAME")]


def _pair(v):
    v = [v] if np.isscalar(v) else list(v)
    return tuple(v) if len(v) == 2 else (v[0], v[0]) if len(v) == 1 else (v[1], v[2])


@pytest.mark.parametrize("strides, padding, dilations", CONV)
def test_conv2d_values_follow_tf_definition(strides, padding, dilations):
    d = _pair(dilations or 1)
    want = ref_conv(X, W, _pair(strides), tf_pads(padding, X, W.shape[:2], _pair(strides), d), d)
    got = tf.nn.conv2d(tf.constant(X), tf.constant(W), strides, padding, dilations=dilations)
    assert_close(got.numpy(), want)


@pytest.mark.parametrize("strides, padding, dilations", DEPTHWISE)
def test_depthwise_and_separable_values_follow_tf_definition(strides, padding, dilations):
    d, s = _pair(dilations or 1), _pair(strides)
    want = ref_depthwise(X, W, s, tf_pads(padding, X, W.shape[:2], s, d), d)
    got = tf.nn.depthwise_conv2d(tf.constant(X), tf.constant(W), strides, padding, dilations=dilations)
    assert_close(got.numpy(), want)
    pointwise = RNG.standard_normal((1, 1, 6, 4))
    got = tf.nn.separable_conv2d(tf.constant(X), tf.constant(W), tf.constant(pointwise), strides, padding,
                                 dilations=dilations)
    assert_close(got.numpy(), want @ pointwise[0, 0])


@pytest.mark.parametrize("ksize, strides, padding", POOL)
@pytest.mark.parametrize("how", ["max", "avg"])
def test_pool_values_follow_tf_definition(ksize, strides, padding, how):
    k, s = _pair(ksize), _pair(strides)
    want = ref_pool(X, k, s, tf_pads(padding, X, k, s), how)
    op = tf.nn.max_pool2d if how == "max" else tf.nn.avg_pool2d
    assert_close(op(tf.constant(X), ksize, strides, padding).numpy(), want)
    generic = tf.nn.max_pool if how == "max" else tf.nn.avg_pool
    assert_close(generic(tf.constant(X), ksize, strides, padding).numpy(), want)


def test_same_average_excludes_padding_and_sizes_are_ceil():
    ones = tf.ones((1, 5, 7, 1))
    y = tf.nn.avg_pool2d(ones, 3, 2, "SAME")
    assert y.shape == (1, 3, 4, 1) and np.all(y.numpy() == 1.0)
    assert tf.nn.conv2d(ones, tf.ones((2, 2, 1, 4)), 3, "SAME").shape == (1, 2, 3, 4)
    assert y.dtype == tf.float32


# --- gradients against finite differences --------------------------------------------------------

def _functions():
    yield "conv2d wrt input", lambda x, s, p, d: tf.nn.conv2d(x, W, s, p, dilations=d), CONV
    yield "conv2d wrt filters", lambda w, s, p, d: tf.nn.conv2d(X[:1], w, s, p, dilations=d), CONV
    yield "depthwise_conv2d wrt input", lambda x, s, p, d: tf.nn.depthwise_conv2d(x, W, s, p, dilations=d), DEPTHWISE
    yield "depthwise_conv2d wrt filters", lambda w, s, p, d: tf.nn.depthwise_conv2d(X[:1], w, s, p, dilations=d), \
        DEPTHWISE
    yield "separable_conv2d wrt input", lambda x, s, p, d: tf.nn.separable_conv2d(x, W, PW, s, p, dilations=d), \
        DEPTHWISE[:3]
    yield "separable_conv2d wrt pointwise filters", \
        lambda pw, s, p, d: tf.nn.separable_conv2d(X[:1], W, pw, s, p, dilations=d), DEPTHWISE[:3]
    yield "max_pool2d", lambda x, k, s, p: tf.nn.max_pool2d(x, k, s, p), POOL
    yield "avg_pool2d", lambda x, k, s, p: tf.nn.avg_pool2d(x, k, s, p), POOL


CASES = [(name, f, args) for name, f, table in _functions() for args in table]
IDS = [f"{name}-{i}" for i, (name, _, _) in enumerate(CASES)]


def _point(name):
    return PW if "pointwise" in name else W if "filters" in name else X[:1, :, :, :2] if "pool" in name else X[:1]


def _numpy(f, args):
    """f on plain float64 arrays, for the finite differences (the tape is not involved)."""
    return lambda a: f(tf.constant(a), *args).numpy()


@pytest.mark.parametrize("name, f, args", CASES, ids=IDS)
def test_first_order_reverse(name, f, args):
    x0 = _point(name)
    wt = np.random.default_rng(1).standard_normal(_numpy(f, args)(x0).shape)
    x = tf.constant(x0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(f(x, *args) * wt)
    want = numeric_grad(lambda a: np.sum(_numpy(f, args)(a) * wt), x0)
    assert_close(tape.gradient(loss, x).numpy(), want, what=name)


@pytest.mark.parametrize("name, f, args", CASES, ids=IDS)
def test_first_order_forward(name, f, args):
    x0 = _point(name)
    t0 = np.random.default_rng(2).standard_normal(x0.shape)
    x = tf.constant(x0)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(t0)) as acc:
        y = f(x, *args)
    assert_close(acc.jvp(y).numpy(), numeric_jvp(_numpy(f, args), [x0], [t0]), what=name)


@pytest.mark.parametrize("name, f, args", CASES, ids=IDS)
def test_second_order(name, f, args):
    """d/dx <d/dx sum(f(x)^2 * wt), v>: conv and avg pooling are linear, so the square makes the
    second derivative non-zero; for max pooling it is 2 * (scatter of gathered v)."""
    x0 = _point(name)
    rng = np.random.default_rng(3)
    wt = rng.standard_normal(_numpy(f, args)(x0).shape)
    v = rng.standard_normal(x0.shape)
    x = tf.constant(x0)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            loss = tf.reduce_sum(f(x, *args) ** 2 * wt)
        gv = tf.reduce_sum(inner.gradient(loss, x) * v)
    got = outer.gradient(gv, x).numpy()
    phi = lambda a: np.sum(_numpy(f, args)(a) ** 2 * wt)  # noqa: E731
    eps = 1e-4
    want = (numeric_grad(phi, x0 + eps * v, 1e-5) - numeric_grad(phi, x0 - eps * v, 1e-5)) / (2 * eps)
    assert_close(got, want, rtol=1e-4, atol=1e-4, what=name)


def test_max_pool_gradient_on_ties_goes_to_the_first_entry_of_the_window():
    x = tf.constant(np.ones((1, 2, 4, 1)))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.max_pool2d(x, 2, 2, "VALID")
    g = tape.gradient(y, x).numpy()[0, :, :, 0]
    np.testing.assert_array_equal(g, [[1.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 0.0]])


# --- what is refused -------------------------------------------------------------------------------

def test_bad_arguments_are_refused_clearly():
    x = tf.ones((1, 4, 4, 2))
    with pytest.raises(errors.InvalidArgumentError, match="NHWC"):
        tf.nn.conv2d(x, tf.ones((2, 2, 2, 1)), 1, "SAME", data_format="NCHW")
    with pytest.raises(errors.InvalidArgumentError, match="same dtype"):
        tf.nn.conv2d(x, tf.ones((2, 2, 2, 1), dtype=tf.float64), 1, "SAME")
    with pytest.raises(errors.InvalidArgumentError, match="2, out_channels"):
        tf.nn.conv2d(x, tf.ones((2, 2, 3, 1)), 1, "SAME")
    with pytest.raises(errors.InvalidArgumentError, match="output size would be negative"):
        tf.nn.max_pool2d(tf.ones((1, 2, 2, 1)), 3, 1, "VALID")
    with pytest.raises(errors.InvalidArgumentError, match="batch and depth"):
        tf.nn.conv2d(x, tf.ones((2, 2, 2, 1)), [2, 1, 1, 1], "SAME")
    with pytest.raises(ValueError, match="'SAME' or 'VALID'"):
        tf.nn.avg_pool2d(x, 2, 1, "FULL")
    with pytest.raises(errors.InvalidArgumentError, match="2, channel_multiplier"):
        tf.nn.depthwise_conv2d(x, tf.ones((2, 2, 3, 1)), [1, 1, 1, 1], "SAME")
    with pytest.raises(errors.InvalidArgumentError, match="need strides of 1"):
        tf.nn.depthwise_conv2d(x, tf.ones((2, 2, 2, 1)), [1, 2, 2, 1], "SAME", dilations=[2, 2])
    with pytest.raises(ValueError, match="4-D"):
        tf.nn.max_pool(tf.ones((1, 4, 2)), 2, 1, "SAME")
