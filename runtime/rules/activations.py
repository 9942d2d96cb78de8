"""Numpy-level activation primitives with their rules: sigmoid, relu, softplus, logsumexp.

Each is a ``@primitive``: on plain arrays it runs the numerically stable numpy code below; on
tensors it is recorded as one op whose derivative is the rule (not the implementation).
Rules may call these functions (softplus' rule uses sigmoid), which keeps them differentiable.
"""

import numpy as np

from .forms import elementwise, symmetric
from .registry import define, primitive
from .support import expand_reduced


@primitive
def sigmoid(x):
    """1 / (1 + exp(-x)), without overflow for large |x|."""
    x = np.asarray(x)
    if x.dtype.kind == "c":     # the stable form below reads |x| and x >= 0: reals only
        return 1.0 / (1.0 + np.exp(-x))
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


@elementwise(sigmoid)
def d_sigmoid(ans, x):
    return ans * (1.0 - ans)


@primitive
def relu(x):
    """max(x, 0), keeping x's dtype."""
    x = np.asarray(x)
    return np.where(x > 0, x, np.zeros_like(x))


# TF: gradient 1 where x > 0 and 0 elsewhere (0 at x == 0).
@symmetric(relu)
def relu_vjp(g, ans, x):
    return np.where(x > 0, g, 0.0)


@primitive
def softplus(x):
    """log(1 + exp(x)) = max(x, 0) + log1p(exp(-|x|)), without overflow."""
    x = np.asarray(x)
    if x.dtype.kind == "c":
        return np.log1p(np.exp(x))
    return np.maximum(x, 0) + np.log1p(np.exp(-np.abs(x)))


@elementwise(softplus)
def d_softplus(ans, x):
    return sigmoid(x)


@primitive
def logsumexp(x, axis=None, keepdims=False):
    """log(sum(exp(x), axis)), shifted by the maximum so it neither overflows nor underflows.

    All -inf along a slice gives -inf; an inf gives inf.
    """
    x = np.asarray(x)
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, np.zeros_like(m))
    with np.errstate(divide="ignore"):
        out = np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True)) + m
    if not keepdims:
        out = np.squeeze(out, axis=axis) if axis is not None else np.reshape(out, ())
    return out


# d logsumexp / dx = softmax(x) along the reduced axes
def logsumexp_vjp(g, ans, x, axis=None, keepdims=False):
    return expand_reduced(g, x, axis, keepdims) * np.exp(x - expand_reduced(ans, x, axis, keepdims))


def logsumexp_jvp(t, ans, x, axis=None, keepdims=False):
    return np.sum(t * np.exp(x - expand_reduced(ans, x, axis, keepdims)), axis=axis, keepdims=keepdims)


define(logsumexp, vjp=(logsumexp_vjp,), jvp=(logsumexp_jvp,))
