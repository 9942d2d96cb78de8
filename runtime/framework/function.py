"""``tf.function`` and a few graph-era names that eager code still uses.

adjoin is always eager: ``tf.function`` returns the Python function itself (with TF's
decorator forms accepted), so decorated training steps run and differentiate as written.
"""

import functools

from ..engine import errors
from ..engine.dtypes import as_dtype
from ..engine.shapes import TensorShape

__all__ = ["function", "executing_eagerly", "TensorSpec", "config"]


def function(func=None, input_signature=None, autograph=True, jit_compile=None,
             reduce_retracing=False, experimental_implements=None,
             experimental_autograph_options=None, experimental_attributes=None,
             experimental_relax_shapes=None, experimental_compile=None,
             experimental_follow_type_hints=None):
    """``@tf.function`` / ``@tf.function(...)``: runs the function eagerly."""
    if func is None:
        return lambda f: function(f)

    @functools.wraps(func)
    def wrapped(*args, **kwargs):
        return errors.call_traced(func, *args, **kwargs)  # TF's tracing errors (TypeError)

    wrapped.python_function = func
    return wrapped


def executing_eagerly():
    return True


class TensorSpec:
    """Describes a tensor's shape and dtype (for ``input_signature``; not enforced)."""

    def __init__(self, shape, dtype="float32", name=None):
        self.shape = TensorShape(shape)
        self.dtype = as_dtype(dtype)
        self.name = name

    def __repr__(self):
        return f"TensorSpec(shape={self.shape}, dtype=tf.{self.dtype.name}, name={self.name!r})"


class _Config:
    """``tf.config``: the switches eager programs flip (no-ops here)."""

    def run_functions_eagerly(self, run_eagerly):
        pass

    def functions_run_eagerly(self):
        return True

    def list_physical_devices(self, device_type=None):
        return [] if device_type and device_type.upper() == "GPU" else ["/physical_device:CPU:0"]

    def set_visible_devices(self, devices, device_type=None):
        pass


config = _Config()
