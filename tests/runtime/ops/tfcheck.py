"""Helpers for the TF-namespace tests: tape gradients against central finite differences."""

import numpy as np

import runtime as tf
from tests.fd import assert_close, numeric_grad


def tape_grads(fn, arrays, weights):
    """d sum(fn(*xs) * weights) / d xs with the tape, in float64."""
    xs = [tf.constant(np.asarray(a, dtype=np.float64)) for a in arrays]
    with tf.GradientTape() as tape:
        tape.watch(xs)
        y = fn(*xs)
        loss = tf.reduce_sum(y * tf.constant(weights))
    return tape.gradient(loss, xs)


def fd_grads(fn, arrays, weights):
    grads = []
    for i in range(len(arrays)):
        def scalar(xi, i=i):
            args = [tf.constant(np.asarray(a, dtype=np.float64)) for a in arrays]
            args[i] = tf.constant(xi)
            return np.sum(np.asarray(fn(*args)) * weights)
        grads.append(numeric_grad(scalar, arrays[i]))
    return grads


def check_gradients(fn, *arrays, seed=0, rtol=1e-5, atol=1e-6):
    """Every argument's tape gradient equals the finite-difference one (shapes included)."""
    rng = np.random.default_rng(seed)
    arrays = [np.asarray(a, dtype=np.float64) for a in arrays]
    out = np.asarray(fn(*[tf.constant(a) for a in arrays]))
    weights = rng.uniform(0.5, 1.5, size=out.shape)
    got = tape_grads(fn, arrays, weights)
    want = fd_grads(fn, arrays, weights)
    for i, (g, w) in enumerate(zip(got, want)):
        assert g is not None, f"argument {i}: gradient is None"
        assert g.dtype == tf.float64, f"argument {i}: gradient dtype {g.dtype}"
        assert_close(g.numpy(), w, rtol=rtol, atol=atol, what=f"argument {i}")
