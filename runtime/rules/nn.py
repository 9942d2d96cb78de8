"""Neural-network primitives whose TensorFlow gradients differ from their compositions.

* ``relu6``: TF passes the gradient only strictly inside (0, 6) (``np.clip`` would pass it at
  the bounds).
* ``softmax_cross_entropy``: TF's kernel gives ``softmax(logits) - labels`` for the logits
  (labels are not assumed to sum to one, and are not rescaled), ``-log_softmax(logits)`` for
  the labels.
"""

import numpy as np

from .activations import logsumexp
from .forms import jvp_like
from .registry import define, primitive
from .support import expand_reduced, unbroadcast


@primitive
def relu6(x):
    """min(max(x, 0), 6), keeping x's dtype."""
    x = np.asarray(x)
    return np.minimum(np.maximum(x, np.zeros_like(x)), np.full_like(x, 6))


def relu6_vjp(g, ans, x):
    return np.where(np.logical_and(x > 0, x < 6), g, 0.0)


define(relu6, vjp=(relu6_vjp,), jvp=jvp_like(relu6_vjp))


@primitive
def softmax_cross_entropy(labels, logits, axis=-1):
    """-sum(labels * log_softmax(logits), axis): one loss per example."""
    logits = np.asarray(logits)
    log_p = logits - logsumexp(logits, axis=axis, keepdims=True)
    return -np.sum(np.asarray(labels) * log_p, axis=axis)


def softmax_cross_entropy_vjp_labels(g, ans, labels, logits, axis=-1):
    log_p = logits - logsumexp(logits, axis=axis, keepdims=True)
    return unbroadcast(-expand_reduced(g, logits, axis, False) * log_p, labels)


def softmax_cross_entropy_vjp_logits(g, ans, labels, logits, axis=-1):
    p = np.exp(logits - logsumexp(logits, axis=axis, keepdims=True))
    return unbroadcast(expand_reduced(g, logits, axis, False) * (p - labels), logits)


def softmax_cross_entropy_jvp_labels(t, ans, labels, logits, axis=-1):
    log_p = logits - logsumexp(logits, axis=axis, keepdims=True)
    return -np.sum(t * log_p, axis=axis)


def softmax_cross_entropy_jvp_logits(t, ans, labels, logits, axis=-1):
    p = np.exp(logits - logsumexp(logits, axis=axis, keepdims=True))
    return np.sum(t * (p - labels), axis=axis)


define(
    softmax_cross_entropy,
    vjp=(softmax_cross_entropy_vjp_labels, softmax_cross_entropy_vjp_logits),
    jvp=(softmax_cross_entropy_jvp_labels, softmax_cross_entropy_jvp_logits),
)
