"""adjoin's runtime: a TensorFlow-2-compatible eager tape.  ``import runtime as tf``."""

from . import errors, nest
from .tensor import (  # noqa: F401
    DType, TensorShape, Tensor, Variable, as_dtype, constant, convert_to_tensor,
    float16, float32, float64, half, double, int8, int16, int32, int64, uint8,
    complex64, complex128, bool, string,
)
from .tape import GradientTape, UnconnectedGradients, stop_gradient  # noqa: F401

newaxis = None
