"""Functions the API tests differentiate (module level, so they pickle and the CLI finds them)."""

import numpy as np

from transpiler import differentiate

SCALE = 3.0


@differentiate
def poly(x):
    return np.sum(SCALE * x ** 3 - x)


@differentiate(wrt=("w", "b"))
def affine_loss(w, b, X):
    z = X @ w + b
    return np.mean(np.tanh(z) ** 2)


@differentiate
def uses_later(x):
    return act(x) * LATER


def plain(x, y):
    return np.sin(x) * y


def logistic_loss(w, X, y):
    p = 1.0 / (1.0 + np.exp(-(X @ w)))
    return -np.mean(y * np.log(p) + (1.0 - y) * np.log(1.0 - p))


act = np.tanh
LATER = 2.0
