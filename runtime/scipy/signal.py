"""``runtime.scipy.signal``: ``convolve``, ``correlate`` and ``fftconvolve`` (every mode, and
fftconvolve's ``axes=``) on tensors, as primitives with rules (``runtime/rules/scipy_signal.py``).
Other names are scipy.signal's own."""

import scipy.signal as _scipy_signal

from ..rules.scipy_signal import convolve, correlate, fftconvolve  # noqa: F401


def __getattr__(name):
    return getattr(_scipy_signal, name)
