"""Losses the distributed tests differentiate (plain numpy, summed or averaged over rows)."""

import numpy as np


def squared_error(w, b, X, y):
    """Sum over rows: a linear model's squared error."""
    r = X @ w + b - y
    return np.sum(r * r)


def cross_entropy(w, b, X, y):
    """Mean over rows, plus a penalty that is not per row (counted once, as in the mean)."""
    p = 1.0 / (1.0 + np.exp(-(X @ w + b)))
    return -np.mean(y * np.log(p) + (1.0 - y) * np.log(1.0 - p)) + 1e-3 * np.sum(w * w)


def dict_loss(params, X, y):
    h = np.tanh(X @ params["W1"] + params["b1"])
    out = h @ params["w2"] + params["b2"]
    return np.mean((out - y) ** 2)


def list_loss(layers, X, y):
    h = np.tanh(X @ layers[0])
    h = np.tanh(h @ layers[1])
    return np.sum((h @ layers[2] - y) ** 2)


def _layer(W, h):
    return np.tanh(h @ W)


def loop_loss(W, X, y, steps=3):
    """A loop over steps, each calling a user function."""
    h = X
    for _ in range(steps):
        h = _layer(W, h) + h
    return np.sum((np.sum(h, axis=1) - y) ** 2)


def checked_loss(w, X):
    """Fails on a block holding a negative row."""
    assert np.all(X >= 0), "negative rows"
    return np.sum(np.sqrt(X @ w))


def outer(w, X, fn):
    return np.sum(fn(X @ w))
