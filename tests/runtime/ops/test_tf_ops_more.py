"""TF ops added for TF code that uses them: values against numpy written here, gradients against
central finite differences of those numpy references (never of the op under test)."""

import numpy as np
import pytest

import runtime as tf
from tests.fd import assert_close, numeric_grad

RNG = np.random.default_rng(3)


def _grad(op, x, w):
    v = tf.Variable(x)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(op(v) * w)
    return tape.gradient(y, v).numpy()


def _check(op, reference, x):
    out = op(tf.constant(x)).numpy()
    assert_close(out, reference(x), 1e-12, 1e-12, what="value")
    w = RNG.standard_normal(out.shape)
    assert_close(_grad(op, x, w), numeric_grad(lambda y: np.sum(reference(y) * w), x), 1e-6, 1e-7, what="grad")


@pytest.mark.parametrize("mode", ["REFLECT", "SYMMETRIC"])
def test_pad_modes(mode):
    x = RNG.standard_normal((3, 4))
    pads = [[1, 2], [3, 0]]
    _check(lambda v: tf.pad(v, pads, mode=mode), lambda y: np.pad(y, pads, mode=mode.lower()), x)
    with pytest.raises(tf.errors.InvalidArgumentError, match="paddings must be"):
        tf.pad(tf.constant(x), [[3 + (mode == "SYMMETRIC"), 0], [0, 0]], mode=mode)


def test_slice():
    x = RNG.standard_normal((3, 4, 2))
    _check(lambda v: tf.slice(v, [1, 0, 1], [2, -1, 1]), lambda y: y[1:3, :, 1:2], x)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Expected size\[1\]"):
        tf.slice(tf.constant(x), [0, 3, 0], [1, 2, 1])


@pytest.mark.parametrize("lower, adjoint", [(True, False), (False, False), (True, True)])
def test_triangular_solve_reads_one_triangle(lower, adjoint):
    a = RNG.standard_normal((3, 3)) + 3 * np.eye(3)
    b = RNG.standard_normal((3, 2))

    def reference(m):
        t = np.tril(m) if lower else np.triu(m)
        return np.linalg.solve(t.T if adjoint else t, b)
    _check(lambda m: tf.linalg.triangular_solve(m, tf.constant(b), lower=lower, adjoint=adjoint), reference, a)


def test_conjugating_transposes():
    z = RNG.standard_normal((2, 3)) + 1j * RNG.standard_normal((2, 3))
    y = RNG.standard_normal((2, 3)) + 1j * RNG.standard_normal((2, 3))
    zt = tf.constant(z)
    assert_close(tf.linalg.adjoint(zt).numpy(), z.conj().T, 0, 0, what="adjoint")
    assert_close(tf.transpose(zt, conjugate=True).numpy(), z.conj().T, 0, 0, what="transpose(conjugate=True)")
    assert_close(tf.linalg.matrix_transpose(zt, conjugate=True).numpy(), z.conj().T, 0, 0, what="matrix_transpose")
    assert_close(tf.matmul(zt, tf.constant(y), adjoint_a=True).numpy(), z.conj().T @ y, 1e-12, 1e-12, what="adjoint_a")
    assert_close(tf.matmul(zt, tf.constant(y), adjoint_b=True).numpy(), z @ y.conj().T, 1e-12, 1e-12, what="adjoint_b")
    assert_close(tf.matmul(zt, tf.constant(y), transpose_b=True).numpy(), z @ y.T, 1e-12, 1e-12, what="transpose_b")
    sq = tf.constant(z[:, :2] + 2 * np.eye(2))
    assert_close(tf.linalg.solve(sq, sq, adjoint=True).numpy(),
                 np.linalg.solve(sq.numpy().conj().T, sq.numpy()), 1e-12, 1e-12, what="solve(adjoint=True)")


def _conv1d_reference(x, w, stride, dilation, padding):
    n, width, _ = x.shape
    k = (w.shape[0] - 1) * dilation + 1
    if padding == "SAME":
        out_w = -(-width // stride)
        total = max((out_w - 1) * stride + k - width, 0)
        x = np.pad(x, [(0, 0), (total // 2, total - total // 2), (0, 0)])
    else:
        out_w = (width - k) // stride + 1
    taps = [x[:, i * dilation: i * dilation + (out_w - 1) * stride + 1: stride, :] for i in range(w.shape[0])]
    return sum(np.einsum("nwc,cd->nwd", t, w[i]) for i, t in enumerate(taps))


@pytest.mark.parametrize("stride, dilation, padding", [(1, 1, "SAME"), (2, 1, "VALID"), (2, 1, "SAME"), (1, 2, "VALID")])
def test_conv1d(stride, dilation, padding):
    x, w = RNG.standard_normal((2, 9, 3)), RNG.standard_normal((3, 3, 4))
    op = lambda v, f: tf.nn.conv1d(v, f, stride, padding, dilations=dilation)  # noqa: E731
    _check(lambda v: op(v, tf.constant(w)), lambda y: _conv1d_reference(y, w, stride, dilation, padding), x)
    _check(lambda f: op(tf.constant(x), f), lambda f: _conv1d_reference(x, f, stride, dilation, padding), w)


@pytest.mark.parametrize("padding", ["SAME", "VALID"])
def test_pools_1d(padding):
    x = RNG.standard_normal((2, 9, 3))
    for op, name in ((tf.nn.max_pool1d, "max"), (tf.nn.avg_pool1d, "avg")):
        out = op(tf.constant(x), 3, 2, padding)
        want = tf.nn.max_pool2d if name == "max" else tf.nn.avg_pool2d
        want = want(tf.constant(x[:, None]), (1, 3), (1, 2), padding).numpy()[:, 0]
        assert_close(out.numpy(), want, 0, 0, what=f"{name} pool value")
        w = RNG.standard_normal(out.shape)
        if name == "avg" or padding == "VALID":
            def reference(y):
                return op(tf.constant(y), 3, 2, padding).numpy()
            assert_close(_grad(lambda v: op(v, 3, 2, padding), x, w),
                         numeric_grad(lambda y: np.sum(reference(y) * w), x), 1e-6, 1e-7, what=f"{name} grad")


def test_scatter_updates_take_the_tensor_dtype():
    x = tf.constant(np.ones((2, 2)))
    assert tf.tensor_scatter_nd_update(x, [[0, 1]], [5.0]).dtype == tf.float64
    assert tf.tensor_scatter_nd_add(x, [[0, 1]], [5.0]).numpy()[0, 1] == 6.0


def test_constant_padding_fills_only_the_border():
    """The constant was also added inside the padded region (zeros padded with 1 gave 1 inside)."""
    x = RNG.standard_normal((2, 3))
    pads = [[1, 0], [2, 1]]
    _check(lambda v: tf.pad(v, pads, constant_values=7.0),
           lambda y: np.pad(y, pads, mode="constant", constant_values=7.0), x)


def test_multiply_no_nan_gradients_are_tfs():
    """At y == 0 TF's gradient for y is x * g (mul_no_nan(x, g)), not 0; x's is 0 there."""
    x, y = tf.Variable(np.array([2.0, 3.0, np.inf])), tf.Variable(np.array([0.0, 1.5, 0.0]))
    w = np.array([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        z = tf.reduce_sum(tf.math.multiply_no_nan(x, y) * w)
    gx, gy = tape.gradient(z, [x, y])
    assert float(z.numpy()) == 9.0
    assert_close(gx.numpy(), np.array([0.0, 3.0, 0.0]), 0, 0, what="d/dx")
    assert_close(gy.numpy(), np.array([2.0, 6.0, np.inf]), 0, 0, what="d/dy")
