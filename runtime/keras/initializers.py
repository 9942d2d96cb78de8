"""``keras.initializers``: callables ``init(shape, dtype=None) -> tensor``.

Variance scaling follows Keras 3: ``glorot_uniform`` draws from U(-limit, limit) with
``limit = sqrt(6 / (fan_in + fan_out))``; ``he_normal`` from a normal truncated at two standard
deviations with ``stddev = sqrt(2 / fan_in)`` (scaled by 1/0.8796... so the truncated
distribution keeps that variance).  Draws come from ``backend.rng`` (see ``utils.set_random_seed``).
"""

import math

import numpy as np

from . import backend
from ..engine.tensor import constant

_TRUNC_STD = 0.87962566103423978  # std of a standard normal truncated to [-2, 2]


def _fans(shape):
    if len(shape) == 0:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive = int(np.prod(shape[:-2]))
    return shape[-2] * receptive, shape[-1] * receptive


def _dtype(dtype):
    dtype = getattr(dtype, "name", dtype) or backend.floatx()
    return np.dtype(dtype)


class Initializer:
    """Base class: subclasses implement ``__call__(shape, dtype=None)``."""

    def __call__(self, shape, dtype=None):
        raise NotImplementedError

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def _gen(self):
        seed = getattr(self, "seed", None)
        if seed is None:
            return backend.rng()
        # a seeded initializer gives the same values on every call, as in Keras 3
        return np.random.default_rng(seed)


class Zeros(Initializer):
    def __call__(self, shape, dtype=None):
        return constant(np.zeros(tuple(shape), _dtype(dtype)))


class Ones(Initializer):
    def __call__(self, shape, dtype=None):
        return constant(np.ones(tuple(shape), _dtype(dtype)))


class Constant(Initializer):
    def __init__(self, value=0.0):
        self.value = value

    def __call__(self, shape, dtype=None):
        v = np.asarray(backend.to_numpy(self.value), dtype=_dtype(dtype))
        return constant(np.broadcast_to(v, tuple(shape)).copy() if v.ndim == 0 else v.reshape(tuple(shape)))

    def get_config(self):
        return {"value": self.value}


class RandomNormal(Initializer):
    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def __call__(self, shape, dtype=None):
        return constant(self._gen().normal(self.mean, self.stddev, tuple(shape)).astype(_dtype(dtype)))


class RandomUniform(Initializer):
    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval, self.maxval, self.seed = minval, maxval, seed

    def __call__(self, shape, dtype=None):
        return constant(self._gen().uniform(self.minval, self.maxval, tuple(shape)).astype(_dtype(dtype)))


def _truncated_normal(gen, mean, stddev, shape):
    out = gen.standard_normal(shape)
    bad = np.abs(out) > 2.0
    while bad.any():
        out[bad] = gen.standard_normal(int(bad.sum()))
        bad = np.abs(out) > 2.0
    return mean + stddev * out


class TruncatedNormal(Initializer):
    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def __call__(self, shape, dtype=None):
        return constant(_truncated_normal(self._gen(), self.mean, self.stddev, tuple(shape)).astype(_dtype(dtype)))


class VarianceScaling(Initializer):
    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None):
        if scale <= 0:
            raise ValueError(f"Argument `scale` must be positive float. Received: scale={scale}")
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ValueError(f"Invalid `mode` argument: {mode!r}; use 'fan_in', 'fan_out' or 'fan_avg'.")
        if distribution not in ("truncated_normal", "untruncated_normal", "uniform"):
            raise ValueError(f"Invalid `distribution` argument: {distribution!r}")
        self.scale, self.mode, self.distribution, self.seed = scale, mode, distribution, seed

    def __call__(self, shape, dtype=None):
        shape = tuple(shape)
        fan_in, fan_out = _fans(shape)
        n = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2.0}[self.mode]
        scale = self.scale / max(1.0, n)
        gen = self._gen()
        if self.distribution == "truncated_normal":
            values = _truncated_normal(gen, 0.0, math.sqrt(scale) / _TRUNC_STD, shape)
        elif self.distribution == "untruncated_normal":
            values = gen.normal(0.0, math.sqrt(scale), shape)
        else:
            limit = math.sqrt(3.0 * scale)
            values = gen.uniform(-limit, limit, shape)
        return constant(np.asarray(values).astype(_dtype(dtype)))

    def get_config(self):
        return {"scale": self.scale, "mode": self.mode, "distribution": self.distribution, "seed": self.seed}


class GlorotUniform(VarianceScaling):
    def __init__(self, seed=None):
        super().__init__(1.0, "fan_avg", "uniform", seed)


class GlorotNormal(VarianceScaling):
    def __init__(self, seed=None):
        super().__init__(1.0, "fan_avg", "truncated_normal", seed)


class HeNormal(VarianceScaling):
    def __init__(self, seed=None):
        super().__init__(2.0, "fan_in", "truncated_normal", seed)


class HeUniform(VarianceScaling):
    def __init__(self, seed=None):
        super().__init__(2.0, "fan_in", "uniform", seed)


class LecunNormal(VarianceScaling):
    def __init__(self, seed=None):
        super().__init__(1.0, "fan_in", "truncated_normal", seed)


class LecunUniform(VarianceScaling):
    def __init__(self, seed=None):
        super().__init__(1.0, "fan_in", "uniform", seed)


class Identity(Initializer):
    def __init__(self, gain=1.0):
        self.gain = gain

    def __call__(self, shape, dtype=None):
        if len(shape) != 2:
            raise ValueError(f"Identity initializer requires a 2D shape, got {tuple(shape)}")
        return constant(self.gain * np.eye(*shape, dtype=_dtype(dtype)))


zeros, ones, constant_ = Zeros, Ones, Constant
glorot_uniform, glorot_normal = GlorotUniform, GlorotNormal
he_normal, he_uniform, lecun_normal, lecun_uniform = HeNormal, HeUniform, LecunNormal, LecunUniform
random_normal, random_uniform, truncated_normal = RandomNormal, RandomUniform, TruncatedNormal
identity = Identity

_BY_NAME = {
    "zeros": Zeros, "ones": Ones, "constant": Constant, "glorot_uniform": GlorotUniform,
    "glorot_normal": GlorotNormal, "he_normal": HeNormal, "he_uniform": HeUniform,
    "lecun_normal": LecunNormal, "lecun_uniform": LecunUniform, "random_normal": RandomNormal,
    "random_uniform": RandomUniform, "truncated_normal": TruncatedNormal,
    "variance_scaling": VarianceScaling, "identity": Identity,
}


def get(identifier):
    """An initializer from a name (``'he_normal'``), an instance, a class or any callable."""
    if identifier is None:
        return None
    if isinstance(identifier, str):
        key = identifier if identifier in _BY_NAME else backend.snake_case(identifier)
        try:
            return _BY_NAME[key]()
        except KeyError:
            raise ValueError(f"Could not interpret initializer identifier: {identifier!r}") from None
    if isinstance(identifier, type):
        return identifier()
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret initializer identifier: {identifier!r}")
