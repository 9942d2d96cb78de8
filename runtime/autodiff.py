"""``tf.autodiff``: ForwardAccumulator (forward mode) and GradientTape."""

from .engine.forward import ForwardAccumulator  # noqa: F401
from .engine.tape import GradientTape  # noqa: F401

__all__ = ["ForwardAccumulator", "GradientTape"]
