"""``tf.constant_initializer``, ``tf.zeros_initializer``, ``tf.ones_initializer``: TF's own (not
Keras') initializers, callables ``init(shape, dtype=tf.float32) -> Tensor``.  Keras layers accept
them as ``kernel_initializer`` / ``bias_initializer``."""

import numpy as np

from ..engine.conversion import _to_numpy
from ..engine.dtypes import as_dtype, float32
from ..engine.shapes import TensorShape
from ..engine.tensor import constant

__all__ = ["constant_initializer", "zeros_initializer", "ones_initializer"]


class constant_initializer:  # noqa: N801 (TF's name)
    """Fills with ``value``: a scalar is broadcast, a list or array must have the shape's size."""

    def __init__(self, value=0):
        self.value = value

    def __call__(self, shape, dtype=None, **kwargs):
        dt = as_dtype(dtype or float32)
        shape = tuple(TensorShape(shape))
        v = np.asarray(_to_numpy(self.value, dt))
        if v.size == 1:
            return constant(np.full(shape, v.reshape(()), dtype=v.dtype))
        if v.size != int(np.prod(shape)):
            raise TypeError(
                f"Eager execution of tf.constant with unsupported shape. Tried to convert a value "
                f"with {v.size} elements to a Tensor of shape {TensorShape(shape)}: give "
                f"tf.constant_initializer a scalar or exactly that many values.")
        return constant(v.reshape(shape))

    def get_config(self):
        return {"value": self.value}


class zeros_initializer:  # noqa: N801
    def __call__(self, shape, dtype=None, **kwargs):
        return constant(np.zeros(tuple(TensorShape(shape)), as_dtype(dtype or float32)._np))

    def get_config(self):
        return {}


class ones_initializer:  # noqa: N801
    def __call__(self, shape, dtype=None, **kwargs):
        return constant(np.ones(tuple(TensorShape(shape)), as_dtype(dtype or float32)._np))

    def get_config(self):
        return {}
