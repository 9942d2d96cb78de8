"""Rules for the parts of complex numbers: real, imag, conj, angle, and building one from two
real parts (``tf.complex``); abs is in ``elementwise``.

The convention is autograd's and JAX's: for a real-valued loss L of a complex z = x + iy, the
cotangent of z is dL/dx - i dL/dy, and holomorphic rules multiply it by f'(z) unconjugated
(so ``multiply`` and ``exp`` need nothing special).  A real input receives the real part of
its cotangent (``support.unbroadcast`` takes it), so real parameters get real gradients even
when complex numbers appear in between, e.g. ``np.abs(x + 1j * y)``.
"""

import numpy as np

from .forms import jvp_like, linear
from .registry import define, primitive
from .support import unbroadcast


@linear(np.real)
def real_vjp(g, ans, val):
    return g * np.ones_like(val)        # complex for a complex input, real for a real one


def imag_vjp(g, ans, val):
    if np.iscomplexobj(val):
        return -1j * g
    return np.zeros_like(g)             # the imaginary part of a real number is the constant 0


def imag_jvp(t, ans, val):
    return np.imag(t)


define(np.imag, vjp=(imag_vjp,), jvp=(imag_jvp,))


def conj_vjp(g, ans, x):
    return np.conj(g)


define((np.conjugate, np.conj), vjp=(conj_vjp,), jvp=jvp_like(conj_vjp))


# angle(z) = atan2(y, x): d/dx = -y / |z|^2, d/dy = x / |z|^2, so the cotangent of z is
# -i g conj(z) / |z|^2 = -i g / z and the tangent imag(t / z).  Written with ufuncs and 1 / z so
# that, run on tensors for second order, no operator mixes a real and a complex dtype.  A real
# input's angle (0 or pi) is piecewise constant.
def angle_vjp(g, ans, z, deg=False):
    if np.iscomplexobj(z):
        return np.divide(np.multiply(g, -57.29577951308232j if deg else -1j), z)
    return np.zeros_like(g)


def angle_jvp(t, ans, z, deg=False):
    if np.iscomplexobj(z):
        return np.multiply(57.29577951308232 if deg else 1.0, np.imag(np.divide(t, z)))
    return np.zeros_like(ans)


define(np.angle, vjp=(angle_vjp,), jvp=(angle_jvp,))


@primitive
def make_complex(real, imag):
    """``real + 1j * imag`` of two real arrays of one dtype (float32 -> complex64), as ``tf.complex``."""
    real, imag = np.asarray(real), np.asarray(imag)
    out = np.empty(np.broadcast_shapes(real.shape, imag.shape), dtype=np.result_type(real, imag, np.complex64))
    out.real, out.imag = real, imag
    return out[()] if out.ndim == 0 else out


# With the cotangent g = dL/dx - i dL/dy of z = x + iy: dL/dx = real(g), dL/dy = -imag(g).
def make_complex_vjp_real(g, ans, real, imag):
    return unbroadcast(np.real(g), real)


def make_complex_vjp_imag(g, ans, real, imag):
    return unbroadcast(np.negative(np.imag(g)), imag)


def make_complex_jvp(t, ans, real, imag):
    return make_complex(np.real(t), np.zeros_like(np.real(t)))


def make_complex_jvp_imag(t, ans, real, imag):
    return make_complex(np.zeros_like(np.real(t)), np.real(t))


define(make_complex, vjp=(make_complex_vjp_real, make_complex_vjp_imag),
       jvp=(make_complex_jvp, make_complex_jvp_imag))
