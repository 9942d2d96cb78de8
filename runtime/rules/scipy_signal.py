"""Rules for scipy.signal's N-d convolutions: convolve, correlate, fftconvolve (every mode, and
fftconvolve's ``axes=``).  Imported only when one of them is looked up; the primitives here run scipy's functions, and on
tensors record one op (runtime.scipy.signal exports them).

A convolution is bilinear, so its JVPs are the convolution applied to a tangent.  Its VJPs pad
the cotangent back to the 'full' result (scipy centres 'same' and 'valid' results within it) and
convolve it, in 'valid' mode, with the other operand flipped along the convolved axes: the
result has exactly the operand's shape.  ``correlate(a, b)`` is ``convolve(a, flip(conj(b)))`` in
every mode, which its rules follow.  A real operand gets the real part of its cotangent (``unbroadcast``).  fftconvolve broadcasts the axes it does not convolve, so
its cotangents are summed back over them (and its 'same' mode centres those axes too).
"""

import numpy as np
from scipy import signal as _signal

from .registry import define, primitive
from .support import normalize_axes, shape_of, unbroadcast


@primitive
def convolve(in1, in2, mode="full", method="auto"):
    """``scipy.signal.convolve`` as a primitive (runtime.scipy.signal exports it)."""
    return _signal.convolve(in1, in2, mode=mode, method=method)


@primitive
def correlate(in1, in2, mode="full", method="auto"):
    """``scipy.signal.correlate`` as a primitive."""
    return _signal.correlate(in1, in2, mode=mode, method=method)


@primitive
def fftconvolve(in1, in2, mode="full", axes=None):
    """``scipy.signal.fftconvolve`` as a primitive."""
    return _signal.fftconvolve(in1, in2, mode=mode, axes=axes)


def full_cotangent(g, in1, in2, mode, axes=None):
    """The cotangent ``g`` of a convolution result in ``mode``, placed (centred, as scipy cuts results)
    within the 'full' result's shape, zeros around it.  Along the convolved ``axes`` (all of them
    when None) the full length is n1 + n2 - 1; along the others (fftconvolve broadcasts them) it is
    the broadcast length, which 'same' cuts down to in1's."""
    if mode == "full":
        return g
    s1, s2, sg = shape_of(in1), shape_of(in2), shape_of(g)
    convolved = normalize_axes(axes, len(sg))
    widths = []
    for ax in range(len(sg)):
        full = s1[ax] + s2[ax] - 1 if ax in convolved else max(s1[ax], s2[ax])
        before = (full - sg[ax]) // 2
        widths.append((before, full - sg[ax] - before))
    return np.pad(g, widths)


def flipped(x, axes=None):
    """``x`` reversed along the convolved ``axes`` (all of them when None)."""
    return np.flip(x, axis=None if axes is None else normalize_axes(axes, len(shape_of(x))))


def convolve_vjp_in1(g, ans, in1, in2, mode="full", method="auto"):
    return unbroadcast(convolve(full_cotangent(g, in1, in2, mode), flipped(in2), mode="valid", method=method), in1)


def convolve_vjp_in2(g, ans, in1, in2, mode="full", method="auto"):
    return unbroadcast(convolve(full_cotangent(g, in1, in2, mode), flipped(in1), mode="valid", method=method), in2)


def convolve_jvp_in1(t, ans, in1, in2, mode="full", method="auto"):
    return convolve(t, in2, mode=mode, method=method)


def convolve_jvp_in2(t, ans, in1, in2, mode="full", method="auto"):
    return convolve(in1, t, mode=mode, method=method)


define((_signal.convolve, convolve), vjp=(convolve_vjp_in1, convolve_vjp_in2), jvp=(convolve_jvp_in1, convolve_jvp_in2))


# correlate(in1, in2) = convolve(in1, flip(conj(in2))): conjugate-linear in in2
def correlate_vjp_in1(g, ans, in1, in2, mode="full", method="auto"):
    return unbroadcast(convolve(full_cotangent(g, in1, in2, mode), np.conj(in2), mode="valid", method=method), in1)


def correlate_vjp_in2(g, ans, in1, in2, mode="full", method="auto"):
    h = np.conj(flipped(convolve(full_cotangent(g, in1, in2, mode), flipped(in1), mode="valid", method=method)))
    return unbroadcast(h, in2)


def correlate_jvp_in1(t, ans, in1, in2, mode="full", method="auto"):
    return correlate(t, in2, mode=mode, method=method)


def correlate_jvp_in2(t, ans, in1, in2, mode="full", method="auto"):
    return correlate(in1, t, mode=mode, method=method)


define((_signal.correlate, correlate), vjp=(correlate_vjp_in1, correlate_vjp_in2), jvp=(correlate_jvp_in1, correlate_jvp_in2))


def fftconvolve_vjp_in1(g, ans, in1, in2, mode="full", axes=None):
    full = full_cotangent(g, in1, in2, mode, axes)
    return unbroadcast(fftconvolve(full, flipped(in2, axes), mode="valid", axes=axes), in1)


def fftconvolve_vjp_in2(g, ans, in1, in2, mode="full", axes=None):
    full = full_cotangent(g, in1, in2, mode, axes)
    return unbroadcast(fftconvolve(full, flipped(in1, axes), mode="valid", axes=axes), in2)


def fftconvolve_jvp_in1(t, ans, in1, in2, mode="full", axes=None):
    return fftconvolve(t, in2, mode=mode, axes=axes)


def fftconvolve_jvp_in2(t, ans, in1, in2, mode="full", axes=None):
    return fftconvolve(in1, t, mode=mode, axes=axes)


define((_signal.fftconvolve, fftconvolve), vjp=(fftconvolve_vjp_in1, fftconvolve_vjp_in2),
       jvp=(fftconvolve_jvp_in1, fftconvolve_jvp_in2))
