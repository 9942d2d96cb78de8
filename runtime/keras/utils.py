"""``keras.utils``: seeding and a few array helpers."""

import numpy as np

from .backend import set_random_seed  # noqa: F401


def to_categorical(x, num_classes=None):
    """One-hot encode integer labels: shape ``x.shape + (num_classes,)``, float32."""
    x = np.asarray(x, dtype=np.int64)
    if x.ndim > 1 and x.shape[-1] == 1:
        x = x[..., 0]
    num_classes = int(x.max()) + 1 if num_classes is None else num_classes
    return np.eye(num_classes, dtype=np.float32)[x]


def normalize(x, axis=-1, order=2):
    x = np.asarray(x, dtype=np.float32)
    norm = np.linalg.norm(x, ord=order, axis=axis, keepdims=True)
    return x / np.where(norm == 0, 1, norm)
