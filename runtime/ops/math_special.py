"""``tf.math`` special functions and zero-safe divisions: ``lgamma``, ``digamma``, ``polygamma``, the
Bessel functions ``bessel_i0``/``i0e``/``i1``/``i1e``, ``xdivy``, ``xlog1py``, ``reciprocal_no_nan``
and the complex parts ``real``, ``imag``, ``conj``, ``angle``.

Each is a primitive of ``runtime.rules`` or a composition of recorded ops, so its gradient comes
from rules that are tested against finite differences.  The zero-safe ones follow TF: the result
and both gradients are 0 where ``x == 0``.
"""

import numpy as np

from .math_ops import _t, abs, exp, log1p, where
from ..rules import special as _special
from ..rules.complexes import make_complex
from ..engine.tensor import _TensorBase, apply

__all__ = ["lgamma", "digamma", "polygamma", "bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e",
           "xdivy", "xlog1py", "reciprocal_no_nan", "real", "imag", "conj", "angle", "complex"]


def _like(y, x):
    """``y`` as a tensor; a Python or numpy value takes ``x``'s dtype, as TF converts it."""
    return y if isinstance(y, _TensorBase) else _t(y, dtype=x.dtype)


def lgamma(x, name=None):
    """log |gamma(x)|."""
    return apply(_special.lgamma, (_t(x),))


def digamma(x, name=None):
    return apply(_special.digamma, (_t(x),))


def polygamma(a, x, name=None):
    """The a-th derivative of digamma (``a`` a non-negative integer, not differentiated)."""
    x = _t(x)
    return apply(_special.polygamma, (_like(a, x), x))


def bessel_i0(x, name=None):
    return apply(np.i0, (_t(x),))


def bessel_i1(x, name=None):
    return apply(_special.i1, (_t(x),))


def bessel_i0e(x, name=None):
    """exp(-|x|) I0(x)."""
    x = _t(x)
    return exp(-abs(x)) * bessel_i0(x)


def bessel_i1e(x, name=None):
    """exp(-|x|) I1(x)."""
    x = _t(x)
    return exp(-abs(x)) * bessel_i1(x)


def xdivy(x, y, name=None):
    """x / y, and 0 where x == 0 (even where y == 0)."""
    x = _t(x)
    y = _like(y, x)
    zero = x.numpy() == 0
    return where(zero, x * 0, x / where(zero, y * 0 + 1, y))


def xlog1py(x, y, name=None):
    """x * log1p(y), and 0 where x == 0."""
    x = _t(x)
    y = _like(y, x)
    zero = x.numpy() == 0
    return where(zero, x * 0, x * log1p(where(zero, y * 0, y)))


def reciprocal_no_nan(x, name=None):
    """1 / x, and 0 where x == 0."""
    x = _t(x)
    zero = x.numpy() == 0
    return where(zero, x * 0, 1 / where(zero, x * 0 + 1, x))


def real(input, name=None):
    return apply(np.real, (_t(input),))


def imag(input, name=None):
    return apply(np.imag, (_t(input),))


def conj(x, name=None):
    return apply(np.conjugate, (_t(x),))


def angle(input, name=None):
    return apply(np.angle, (_t(input),))


def complex(real, imag, name=None):
    """``tf.complex``: float32 parts make complex64, float64 parts complex128; TF refuses mixing them."""
    real, imag = _t(real), _t(imag)
    dr, di = real._value.dtype, imag._value.dtype
    if dr != di or dr.kind != "f" or dr.itemsize < 4:
        raise TypeError(f"tf.complex wants two float32 or two float64 tensors, got {dr.name} and {di.name}; "
                        f"cast them to one of those first")
    return apply(make_complex, (real, imag))
