"""Shared checks: transpiler gradient == finite differences == runtime tape."""

import numpy as np

from tests.fd import assert_close, numeric_vjp
from transpiler import differentiate

import runtime as tf


def as_tuple(x):
    return x if isinstance(x, tuple) else (x,)


def fd_grads(f, args, wrt, seed=None):
    """Finite-difference vjp of f at args for each wrt index (seed: ones like the output)."""
    out = np.asarray(f(*args), dtype=np.float64)
    g = np.ones_like(out) if seed is None else np.asarray(seed, dtype=np.float64)
    return [numeric_vjp(f, args, i, g) for i in wrt]


def tape_grads(f, args, wrt):
    tensors = [tf.constant(np.asarray(a, dtype=np.float64)) if i in wrt else a for i, a in enumerate(args)]
    with tf.GradientTape() as tape:
        for i in wrt:
            tape.watch(tensors[i])
        y = f(*tensors)
    grads = tape.gradient(y, [tensors[i] for i in wrt])
    return [np.zeros(np.shape(args[i])) if gr is None else np.asarray(gr.numpy()) for i, gr in zip(wrt, grads)]


def check(f, *args, wrt=0, tape=True, rtol=1e-5, atol=1e-6):
    """Differentiate ``f`` and compare against finite differences and (optionally) the tape."""
    d = differentiate(f, wrt=wrt)
    idx = [wrt] if not isinstance(wrt, tuple) else list(wrt)
    got = as_tuple(d.grad(*args)) if isinstance(wrt, tuple) else (d.grad(*args),)
    expected = fd_grads(f, args, idx)
    for i, gval, e in zip(idx, got, expected):
        assert_close(np.asarray(gval, dtype=np.float64).reshape(np.shape(args[i])), e, rtol, atol,
                     what=f"{f.__name__}: d/d arg {i} vs finite differences\n{d.source}")
        assert np.shape(gval) == np.shape(args[i]), f"{f.__name__}: gradient shape {np.shape(gval)}"
    if tape:
        for i, gval, t in zip(idx, got, tape_grads(f, args, idx)):
            assert_close(gval, t, 1e-6, 1e-8, what=f"{f.__name__}: d/d arg {i} vs tape\n{d.source}")
    return d
