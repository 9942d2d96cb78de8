"""``tf.signal``: Fourier transforms over the innermost axes, and the shifts.

They run ``np.fft`` on tensors, so gradients come from ``runtime/rules/fft.py``.  For real
sources the gradient is TensorFlow's; for complex sources it follows the autograd/JAX convention
(dL/dx - i dL/dy), the conjugate of what TensorFlow returns (see docs/reference/linalg.md, "Complex numbers").
As in TensorFlow, ``fft``/``ifft`` need complex input and ``rfft`` real input.
"""

import numpy as np

from .ops.math_ops import _np, _t
from .rules.registry import alias

__all__ = ["fft", "ifft", "fft2d", "ifft2d", "fft3d", "ifft3d", "rfft", "irfft", "rfft2d", "irfft2d",
           "rfft3d", "irfft3d", "fftshift", "ifftshift"]


def _typed(x, kinds, what, allowed):
    x = _t(x)
    if x._value.dtype.kind not in kinds:
        raise TypeError(f"Value passed to parameter '{what}' has DataType {x.dtype.name} not in list of "
                        f"allowed values: {allowed}")
    return x


def _complex(x):
    return _typed(x, "c", "input", "complex64, complex128")


def _real(x):
    return _typed(x, "f", "input", "float32, float64")


def _lengths(fft_length, k):
    """``fft_length`` (None, a list or a tensor of k ints) as numpy's ``s``."""
    if fft_length is None:
        return None
    lengths = tuple(int(v) for v in np.ravel(_np(fft_length)))
    if len(lengths) != k:
        raise ValueError(f"fft_length must have {k} element(s), got {lengths}")
    return lengths


def fft(input, name=None):
    return np.fft.fft(_complex(input))


def ifft(input, name=None):
    return np.fft.ifft(_complex(input))


def fft2d(input, name=None):
    return np.fft.fft2(_complex(input))


def ifft2d(input, name=None):
    return np.fft.ifft2(_complex(input))


def fft3d(input, name=None):
    return np.fft.fftn(_complex(input), axes=(-3, -2, -1))


def ifft3d(input, name=None):
    return np.fft.ifftn(_complex(input), axes=(-3, -2, -1))


def rfft(input_tensor, fft_length=None, name=None):
    n = _lengths(fft_length, 1)
    return np.fft.rfft(_real(input_tensor), n=None if n is None else n[0])


def irfft(input_tensor, fft_length=None, name=None):
    n = _lengths(fft_length, 1)
    return np.fft.irfft(_complex(input_tensor), n=None if n is None else n[0])


def rfft2d(input_tensor, fft_length=None, name=None):
    return np.fft.rfft2(_real(input_tensor), s=_lengths(fft_length, 2))


def irfft2d(input_tensor, fft_length=None, name=None):
    return np.fft.irfft2(_complex(input_tensor), s=_lengths(fft_length, 2))


def rfft3d(input_tensor, fft_length=None, name=None):
    return np.fft.rfftn(_real(input_tensor), s=_lengths(fft_length, 3), axes=(-3, -2, -1))


def irfft3d(input_tensor, fft_length=None, name=None):
    return np.fft.irfftn(_complex(input_tensor), s=_lengths(fft_length, 3), axes=(-3, -2, -1))


def fftshift(x, axes=None, name=None):
    return np.fft.fftshift(_t(x), axes=axes)


def ifftshift(x, axes=None, name=None):
    return np.fft.ifftshift(_t(x), axes=axes)


# In @differentiate functions the transpiler writes these as the numpy primitives they compute.
for _fn, _np_fn in ((fft, np.fft.fft), (ifft, np.fft.ifft), (fft2d, np.fft.fft2), (ifft2d, np.fft.ifft2)):
    alias(_fn, _np_fn, ["input"])
for _fn, _np_fn in ((rfft, np.fft.rfft), (irfft, np.fft.irfft), (rfft2d, np.fft.rfft2), (irfft2d, np.fft.irfft2)):
    alias(_fn, _np_fn, ["input_tensor"])        # only with fft_length left at None
alias(fftshift, np.fft.fftshift, ["x", "axes"])
alias(ifftshift, np.fft.ifftshift, ["x", "axes"])
