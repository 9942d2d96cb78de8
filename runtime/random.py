"""``tf.random``: normal, uniform, truncated_normal, shuffle, categorical and set_seed.

The numbers come from numpy's PCG64, not TensorFlow's Philox: a seeded program is
reproducible run to run, but does not draw the same values TensorFlow would.
"""

import numpy as np

from .ops.math_ops import _np, _shape
from .engine.dtypes import as_dtype, float32
from .engine.tensor import _wrap

__all__ = ["set_seed", "normal", "uniform", "truncated_normal", "shuffle", "categorical",
           "stateless_normal", "stateless_uniform", "Generator"]

_global = {"seed": None, "rng": np.random.default_rng()}


def set_seed(seed):
    """Reset the global random generator: after it, the same calls draw the same numbers."""
    _global["seed"] = seed
    _global["rng"] = np.random.default_rng(seed)


def _generator(seed=None):
    if seed is not None and _global["seed"] is None:
        # an op seed without a global seed: TF gives a fixed sequence per op seed
        return np.random.default_rng(int(seed))
    return _global["rng"]


def normal(shape, mean=0.0, stddev=1.0, dtype=float32, seed=None, name=None):
    dt = as_dtype(dtype)._np
    v = _generator(seed).standard_normal(_shape(shape)) * float(_np(stddev)) + float(_np(mean))
    return _wrap(np.asarray(v, dtype=dt))


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=float32, seed=None, name=None):
    rng = _generator(seed)
    shp = _shape(shape)
    v = rng.standard_normal(shp)
    bad = np.abs(v) > 2
    while np.any(bad):
        v[bad] = rng.standard_normal(int(bad.sum()))
        bad = np.abs(v) > 2
    return _wrap(np.asarray(v * float(_np(stddev)) + float(_np(mean)), dtype=as_dtype(dtype)._np))


def uniform(shape, minval=0, maxval=None, dtype=float32, seed=None, name=None):
    dt = as_dtype(dtype)
    rng = _generator(seed)
    if dt.is_integer:
        if maxval is None:
            raise ValueError("Must specify maxval for integer dtype")
        return _wrap(rng.integers(int(_np(minval)), int(_np(maxval)), size=_shape(shape)).astype(dt._np))
    hi = 1.0 if maxval is None else float(_np(maxval))
    v = rng.uniform(float(_np(minval)), hi, size=_shape(shape))
    return _wrap(np.asarray(v, dtype=dt._np))


def shuffle(value, seed=None, name=None):
    v = np.array(_np(value), copy=True)
    _generator(seed).shuffle(v)
    return _wrap(v)


def categorical(logits, num_samples, dtype=None, seed=None, name=None):
    lg = np.asarray(_np(logits), dtype=np.float64)
    p = np.exp(lg - lg.max(axis=-1, keepdims=True))
    p /= p.sum(axis=-1, keepdims=True)
    rng = _generator(seed)
    out = np.stack([rng.choice(p.shape[-1], size=int(num_samples), p=row) for row in p])
    return _wrap(out.astype(as_dtype(dtype or "int64")._np))


def stateless_normal(shape, seed, mean=0.0, stddev=1.0, dtype=float32, name=None, alg="auto_select"):
    rng = np.random.default_rng([int(s) for s in np.asarray(_np(seed)).reshape(-1)])
    v = rng.standard_normal(_shape(shape)) * float(_np(stddev)) + float(_np(mean))
    return _wrap(np.asarray(v, dtype=as_dtype(dtype)._np))


def stateless_uniform(shape, seed, minval=0, maxval=None, dtype=float32, name=None, alg="auto_select"):
    rng = np.random.default_rng([int(s) for s in np.asarray(_np(seed)).reshape(-1)])
    hi = 1.0 if maxval is None else float(_np(maxval))
    return _wrap(np.asarray(rng.uniform(float(_np(minval)), hi, size=_shape(shape)), dtype=as_dtype(dtype)._np))


class Generator:
    """``tf.random.Generator.from_seed(s)``: an independent stream of random numbers."""

    def __init__(self, seed=None):
        self._rng = np.random.default_rng(seed)

    @classmethod
    def from_seed(cls, seed, alg=None):
        return cls(seed)

    @classmethod
    def from_non_deterministic_state(cls, alg=None):
        return cls()

    def normal(self, shape, mean=0.0, stddev=1.0, dtype=float32, name=None):
        v = self._rng.standard_normal(_shape(shape)) * float(_np(stddev)) + float(_np(mean))
        return _wrap(np.asarray(v, dtype=as_dtype(dtype)._np))

    def uniform(self, shape, minval=0, maxval=None, dtype=float32, name=None):
        hi = 1.0 if maxval is None else float(_np(maxval))
        return _wrap(np.asarray(self._rng.uniform(float(_np(minval)), hi, size=_shape(shape)),
                                dtype=as_dtype(dtype)._np))
