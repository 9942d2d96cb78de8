"""Rules for trigonometric and hyperbolic functions and their inverses (numpy ufuncs), and sinc.

Inverse functions are exact inside their domains; at the edges of a domain (arcsin at +-1,
arccosh at 1) the derivative is infinite, as the formula says.
"""

import numpy as np

from .registry import define
from .support import broadcast_like, unbroadcast

# --- trigonometric ----------------------------------------------------------------------

def sin_vjp(g, ans, x):
    return g * np.cos(x)


def sin_jvp(t, ans, x):
    return t * np.cos(x)


define(np.sin, vjp=(sin_vjp,), jvp=(sin_jvp,))


def cos_vjp(g, ans, x):
    return -g * np.sin(x)


def cos_jvp(t, ans, x):
    return -t * np.sin(x)


define(np.cos, vjp=(cos_vjp,), jvp=(cos_jvp,))


def tan_vjp(g, ans, x):
    return g / np.square(np.cos(x))


def tan_jvp(t, ans, x):
    return t / np.square(np.cos(x))


define(np.tan, vjp=(tan_vjp,), jvp=(tan_jvp,))


def arcsin_vjp(g, ans, x):
    return g / np.sqrt(1.0 - x * x)


def arcsin_jvp(t, ans, x):
    return t / np.sqrt(1.0 - x * x)


define(np.arcsin, vjp=(arcsin_vjp,), jvp=(arcsin_jvp,))


def arccos_vjp(g, ans, x):
    return -g / np.sqrt(1.0 - x * x)


def arccos_jvp(t, ans, x):
    return -t / np.sqrt(1.0 - x * x)


define(np.arccos, vjp=(arccos_vjp,), jvp=(arccos_jvp,))


def arctan_vjp(g, ans, x):
    return g / (1.0 + x * x)


def arctan_jvp(t, ans, x):
    return t / (1.0 + x * x)


define(np.arctan, vjp=(arctan_vjp,), jvp=(arctan_jvp,))


# arctan2(y, x): the angle of the point (x, y)
def arctan2_vjp_y(g, ans, y, x):
    return unbroadcast(g * x / (x * x + y * y), y)


def arctan2_vjp_x(g, ans, y, x):
    return unbroadcast(-g * y / (x * x + y * y), x)


def arctan2_jvp_y(t, ans, y, x):
    return broadcast_like(t * x / (x * x + y * y), ans)


def arctan2_jvp_x(t, ans, y, x):
    return broadcast_like(-t * y / (x * x + y * y), ans)


define(np.arctan2, vjp=(arctan2_vjp_y, arctan2_vjp_x), jvp=(arctan2_jvp_y, arctan2_jvp_x))


def hypot_vjp_x(g, ans, x, y):
    return unbroadcast(g * x / ans, x)


def hypot_vjp_y(g, ans, x, y):
    return unbroadcast(g * y / ans, y)


def hypot_jvp_x(t, ans, x, y):
    return broadcast_like(t * x / ans, ans)


def hypot_jvp_y(t, ans, x, y):
    return broadcast_like(t * y / ans, ans)


define(np.hypot, vjp=(hypot_vjp_x, hypot_vjp_y), jvp=(hypot_jvp_x, hypot_jvp_y))


def deg2rad_vjp(g, ans, x):
    return g * 0.017453292519943295


def deg2rad_jvp(t, ans, x):
    return t * 0.017453292519943295


define((np.deg2rad, np.radians), vjp=(deg2rad_vjp,), jvp=(deg2rad_jvp,))


def rad2deg_vjp(g, ans, x):
    return g * 57.29577951308232


def rad2deg_jvp(t, ans, x):
    return t * 57.29577951308232


define((np.rad2deg, np.degrees), vjp=(rad2deg_vjp,), jvp=(rad2deg_jvp,))


# --- hyperbolic -------------------------------------------------------------------------

def sinh_vjp(g, ans, x):
    return g * np.cosh(x)


def sinh_jvp(t, ans, x):
    return t * np.cosh(x)


define(np.sinh, vjp=(sinh_vjp,), jvp=(sinh_jvp,))


def cosh_vjp(g, ans, x):
    return g * np.sinh(x)


def cosh_jvp(t, ans, x):
    return t * np.sinh(x)


define(np.cosh, vjp=(cosh_vjp,), jvp=(cosh_jvp,))


def tanh_vjp(g, ans, x):
    return g * (1.0 - ans * ans)


def tanh_jvp(t, ans, x):
    return t * (1.0 - ans * ans)


define(np.tanh, vjp=(tanh_vjp,), jvp=(tanh_jvp,))


def arcsinh_vjp(g, ans, x):
    return g / np.sqrt(x * x + 1.0)


def arcsinh_jvp(t, ans, x):
    return t / np.sqrt(x * x + 1.0)


define(np.arcsinh, vjp=(arcsinh_vjp,), jvp=(arcsinh_jvp,))


# sqrt(x - 1) sqrt(x + 1), not sqrt(x * x - 1): the same for real x > 1, and on complex x the
# one whose branch matches numpy's arccosh (they differ where Re x < 0).
def arccosh_vjp(g, ans, x):
    return g / (np.sqrt(x - 1.0) * np.sqrt(x + 1.0))


def arccosh_jvp(t, ans, x):
    return t / (np.sqrt(x - 1.0) * np.sqrt(x + 1.0))


define(np.arccosh, vjp=(arccosh_vjp,), jvp=(arccosh_jvp,))


def arctanh_vjp(g, ans, x):
    return g / (1.0 - x * x)


def arctanh_jvp(t, ans, x):
    return t / (1.0 - x * x)


define(np.arctanh, vjp=(arctanh_vjp,), jvp=(arctanh_jvp,))


# sinc(x) = sin(pi x) / (pi x): the derivative (cos(pi x) - sinc(x)) / x, 0 at x = 0.  Exact at
# first order everywhere; the second derivative is exact away from x = 0.
def sinc_vjp(g, ans, x):
    return g * np.where(x == 0, 0.0, (np.cos(np.pi * x) - ans) / np.where(x == 0, 1.0, x))


def sinc_jvp(t, ans, x):
    return t * np.where(x == 0, 0.0, (np.cos(np.pi * x) - ans) / np.where(x == 0, 1.0, x))


define(np.sinc, vjp=(sinc_vjp,), jvp=(sinc_jvp,))
