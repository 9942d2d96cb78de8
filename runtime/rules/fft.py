"""Rules for ``np.fft``: fft, ifft, rfft, irfft, hfft, ihfft, the 2-d / n-d forms, fftshift, ifftshift.

Complex convention (autograd's and JAX's, the one ``complexes`` uses): a loss is real; for a
complex intermediate z = x + iy its cotangent is dL/dx - i dL/dy, and a linear map's VJP is
its plain transpose (no conjugate).  A real input receives the real part of that transpose,
so gradients with respect to real parameters are real, e.g. of ``sum(abs(fft(x)) ** 2)``.
(TensorFlow returns the conjugate of this for *complex* sources; for real sources the two agree.)

Each transform is a matrix F applied along some axes after the input is cut or zero-padded to
``n`` / ``s``.  The DFT matrix is symmetric (F^T = F, also with ``norm="ortho"`` / ``"forward"``,
which only scale it), so the VJP of fft is an fft of the cotangent, cut or padded back to the
input's length; ifft likewise.  rfft keeps the first n//2 + 1 outputs of a real input's fft:
its VJP zero-pads the cotangent to n, takes the fft, and the real part.  irfft reads the
Hermitian half-spectrum (the imaginary parts of bins 0 and n/2 are ignored): its VJP is the ifft
of the cotangent, cut to the half-spectrum, with bins other than 0 and n/2 doubled (they stand
for two bins of the full spectrum).
"""

import numpy as np

from .forms import transposes
from .registry import define, nondifferentiable, primitive
from .shape import cast
from .support import dtype_of, shape_of

__all__ = []


# --- helpers ------------------------------------------------------------------------------

@primitive
def real_part(z):
    """``np.real`` (kept here so the FFT rules need nothing else: the cotangent of a complex
    intermediate becomes the gradient of a real input here)."""
    return np.real(z)


def real_part_vjp(g, ans, z):
    if np.iscomplexobj(z):        # d/dx - i d/dy of real(x + iy) = 1, as z's (complex) dtype
        return cast(g, dtype_of(z))
    return g


def real_part_jvp(t, ans, z):
    return real_part(t)


define(real_part, vjp=(real_part_vjp,), jvp=(real_part_jvp,))


def like_input(r, a):
    """The cotangent ``r`` of a complex value for input ``a``: its real part when ``a`` is real."""
    return r if np.iscomplexobj(a) else real_part(r)


def fit(x, length, axis):
    """``x`` cut to ``length`` along ``axis``, or zero-padded to it (what ``n=`` does to an input)."""
    s = shape_of(x)
    axis = axis % len(s)
    have = s[axis]
    if have == length:
        return x
    if have > length:
        return x[(slice(None),) * axis + (slice(0, length),)]
    pad = s[:axis] + (length - have,) + s[axis + 1:]
    return np.concatenate([x, np.zeros(pad, dtype=dtype_of(x))], axis=axis)


def fit_axes(x, a, axes):
    """``x`` cut or padded along ``axes`` to ``a``'s lengths (undoing ``s=``)."""
    sa = shape_of(a)
    for ax in axes:
        x = fit(x, sa[ax], ax)
    return x


def axes_of(a, s, axes):
    """The axes an n-d transform runs over, as numpy chooses them."""
    nd = len(shape_of(a))
    if axes is None:
        axes = range(nd) if s is None else range(nd - len(s), nd)
    return [ax % nd for ax in axes]


def half_spectrum_weights(n, axis, ndim, dtype):
    """How many bins of the full spectrum each of irfft's n//2 + 1 input bins stands for."""
    w = np.full(n // 2 + 1, 2.0)
    w[0] = 1.0
    if n % 2 == 0:
        w[-1] = 1.0
    shape = [1] * ndim
    shape[axis % ndim] = n // 2 + 1
    return np.reshape(w, shape).astype(dtype)


# ints and constant weights computed from shapes: constants when the rules are differentiated again
nondifferentiable(axes_of, half_spectrum_weights)


def check_norm(norm):
    if norm not in (None, "backward", "ortho", "forward"):
        raise ValueError(f"norm={norm!r}: numpy accepts None, 'backward', 'ortho' or 'forward'")


# --- 1-d ------------------------------------------------------------------------------------

def fft_vjp(g, ans, a, n=None, axis=-1, norm=None, out=None):
    return like_input(fit(np.fft.fft(g, axis=axis, norm=norm), shape_of(a)[axis], axis), a)


def fft_jvp(t, ans, a, n=None, axis=-1, norm=None, out=None):
    return np.fft.fft(t, n=n, axis=axis, norm=norm)


def ifft_vjp(g, ans, a, n=None, axis=-1, norm=None, out=None):
    return like_input(fit(np.fft.ifft(g, axis=axis, norm=norm), shape_of(a)[axis], axis), a)


def ifft_jvp(t, ans, a, n=None, axis=-1, norm=None, out=None):
    return np.fft.ifft(t, n=n, axis=axis, norm=norm)


def rfft_vjp(g, ans, a, n=None, axis=-1, norm=None, out=None):
    check_norm(norm)
    length = shape_of(a)[axis] if n is None else n
    full = np.fft.fft(fit(g, length, axis), axis=axis, norm=norm)
    return real_part(fit(full, shape_of(a)[axis], axis))


def rfft_jvp(t, ans, a, n=None, axis=-1, norm=None, out=None):
    return np.fft.rfft(t, n=n, axis=axis, norm=norm)


def irfft_vjp(g, ans, a, n=None, axis=-1, norm=None, out=None):
    check_norm(norm)
    length = shape_of(ans)[axis]
    half = fit(np.fft.ifft(g, axis=axis, norm=norm), length // 2 + 1, axis)
    half = half * half_spectrum_weights(length, axis, len(shape_of(ans)), dtype_of(g))
    return like_input(fit(half, shape_of(a)[axis], axis), a)


def irfft_jvp(t, ans, a, n=None, axis=-1, norm=None, out=None):
    return np.fft.irfft(t, n=n, axis=axis, norm=norm)


def hfft_vjp(g, ans, a, n=None, axis=-1, norm=None, out=None):
    """hfft reads a Hermitian half-spectrum like irfft but transforms forward: the weights of irfft,
    with fft in place of ifft."""
    check_norm(norm)
    length = shape_of(ans)[axis]
    half = fit(np.fft.fft(g, axis=axis, norm=norm), length // 2 + 1, axis)
    half = half * half_spectrum_weights(length, axis, len(shape_of(ans)), dtype_of(g))
    return like_input(fit(half, shape_of(a)[axis], axis), a)


def hfft_jvp(t, ans, a, n=None, axis=-1, norm=None, out=None):
    return np.fft.hfft(t, n=n, axis=axis, norm=norm)


def ihfft_vjp(g, ans, a, n=None, axis=-1, norm=None, out=None):
    check_norm(norm)
    length = shape_of(a)[axis] if n is None else n
    full = np.fft.ifft(fit(g, length, axis), axis=axis, norm=norm)
    return real_part(fit(full, shape_of(a)[axis], axis))


def ihfft_jvp(t, ans, a, n=None, axis=-1, norm=None, out=None):
    return np.fft.ihfft(t, n=n, axis=axis, norm=norm)


define(np.fft.fft, vjp=(fft_vjp,), jvp=(fft_jvp,))
define(np.fft.ifft, vjp=(ifft_vjp,), jvp=(ifft_jvp,))
define(np.fft.rfft, vjp=(rfft_vjp,), jvp=(rfft_jvp,))
define(np.fft.irfft, vjp=(irfft_vjp,), jvp=(irfft_jvp,))
define(np.fft.hfft, vjp=(hfft_vjp,), jvp=(hfft_jvp,))
define(np.fft.ihfft, vjp=(ihfft_vjp,), jvp=(ihfft_jvp,))


# --- n-d (fft2 / ifft2 / rfft2 / irfft2 are the n-d ones over the last two axes) ------------------

def fftn_vjp(g, ans, a, s=None, axes=None, norm=None, out=None):
    ax = axes_of(a, s, axes)
    return like_input(fit_axes(np.fft.fftn(g, axes=ax, norm=norm), a, ax), a)


def fftn_jvp(t, ans, a, s=None, axes=None, norm=None, out=None):
    return np.fft.fftn(t, s=s, axes=axes_of(t, s, axes), norm=norm)


def ifftn_vjp(g, ans, a, s=None, axes=None, norm=None, out=None):
    ax = axes_of(a, s, axes)
    return like_input(fit_axes(np.fft.ifftn(g, axes=ax, norm=norm), a, ax), a)


def ifftn_jvp(t, ans, a, s=None, axes=None, norm=None, out=None):
    return np.fft.ifftn(t, s=s, axes=axes_of(t, s, axes), norm=norm)


def rfftn_vjp(g, ans, a, s=None, axes=None, norm=None, out=None):
    check_norm(norm)
    ax = axes_of(a, s, axes)
    last = shape_of(a)[ax[-1]] if s is None else s[-1]
    full = np.fft.fftn(fit(g, last, ax[-1]), axes=ax, norm=norm)
    return real_part(fit_axes(full, a, ax))


def rfftn_jvp(t, ans, a, s=None, axes=None, norm=None, out=None):
    return np.fft.rfftn(t, s=s, axes=axes_of(t, s, axes), norm=norm)


def irfftn_vjp(g, ans, a, s=None, axes=None, norm=None, out=None):
    check_norm(norm)
    ax = axes_of(a, s, axes)
    length = shape_of(ans)[ax[-1]]
    half = fit(np.fft.ifftn(g, axes=ax, norm=norm), length // 2 + 1, ax[-1])
    half = half * half_spectrum_weights(length, ax[-1], len(shape_of(ans)), dtype_of(g))
    return like_input(fit_axes(half, a, ax), a)


def irfftn_jvp(t, ans, a, s=None, axes=None, norm=None, out=None):
    return np.fft.irfftn(t, s=s, axes=axes_of(t, s, axes), norm=norm)


def fft2_vjp(g, ans, a, s=None, axes=(-2, -1), norm=None, out=None):
    return fftn_vjp(g, ans, a, s, axes, norm)


def fft2_jvp(t, ans, a, s=None, axes=(-2, -1), norm=None, out=None):
    return fftn_jvp(t, ans, a, s, axes, norm)


def ifft2_vjp(g, ans, a, s=None, axes=(-2, -1), norm=None, out=None):
    return ifftn_vjp(g, ans, a, s, axes, norm)


def ifft2_jvp(t, ans, a, s=None, axes=(-2, -1), norm=None, out=None):
    return ifftn_jvp(t, ans, a, s, axes, norm)


def rfft2_vjp(g, ans, a, s=None, axes=(-2, -1), norm=None, out=None):
    return rfftn_vjp(g, ans, a, s, axes, norm)


def rfft2_jvp(t, ans, a, s=None, axes=(-2, -1), norm=None, out=None):
    return rfftn_jvp(t, ans, a, s, axes, norm)


def irfft2_vjp(g, ans, a, s=None, axes=(-2, -1), norm=None, out=None):
    return irfftn_vjp(g, ans, a, s, axes, norm)


def irfft2_jvp(t, ans, a, s=None, axes=(-2, -1), norm=None, out=None):
    return irfftn_jvp(t, ans, a, s, axes, norm)


define(np.fft.fftn, vjp=(fftn_vjp,), jvp=(fftn_jvp,))
define(np.fft.ifftn, vjp=(ifftn_vjp,), jvp=(ifftn_jvp,))
define(np.fft.rfftn, vjp=(rfftn_vjp,), jvp=(rfftn_jvp,))
define(np.fft.irfftn, vjp=(irfftn_vjp,), jvp=(irfftn_jvp,))
define(np.fft.fft2, vjp=(fft2_vjp,), jvp=(fft2_jvp,))
define(np.fft.ifft2, vjp=(ifft2_vjp,), jvp=(ifft2_jvp,))
define(np.fft.rfft2, vjp=(rfft2_vjp,), jvp=(rfft2_jvp,))
define(np.fft.irfft2, vjp=(irfft2_vjp,), jvp=(irfft2_jvp,))


# --- shifts: permutations, each the other's transpose -----------------------------------------

transposes(np.fft.fftshift, np.fft.ifftshift, "x, axes=None")
