"""Rules for trigonometric and hyperbolic functions and their inverses (numpy ufuncs), and sinc.

Each states its derivative once (``forms.elementwise``); ``pymath`` makes the ``math`` module's
rules from the same statements.  Inverse functions are exact inside their domains; at the edges
of a domain (arcsin at +-1, arccosh at 1) the derivative is infinite, as the formula says.
"""

import numpy as np

from .forms import elementwise

# --- trigonometric ----------------------------------------------------------------------


@elementwise(np.sin)
def d_sin(ans, x):
    return np.cos(x)


@elementwise(np.cos)
def d_cos(ans, x):
    return -np.sin(x)


@elementwise(np.tan)
def d_tan(ans, x):
    return 1.0 / np.cos(x) ** 2


@elementwise(np.arcsin)
def d_arcsin(ans, x):
    return 1.0 / np.sqrt(1.0 - x * x)


@elementwise(np.arccos)
def d_arccos(ans, x):
    return -1.0 / np.sqrt(1.0 - x * x)


@elementwise(np.arctan)
def d_arctan(ans, x):
    return 1.0 / (1.0 + x * x)


@elementwise(np.arctan2)        # the angle of the point (x, y)
def d_arctan2(ans, y, x):
    return x / (x * x + y * y), -y / (x * x + y * y)


@elementwise(np.hypot)
def d_hypot(ans, x, y):
    return x / ans, y / ans


@elementwise((np.deg2rad, np.radians))
def d_deg2rad(ans, x):
    return 0.017453292519943295


@elementwise((np.rad2deg, np.degrees))
def d_rad2deg(ans, x):
    return 57.29577951308232


# --- hyperbolic -------------------------------------------------------------------------

@elementwise(np.sinh)
def d_sinh(ans, x):
    return np.cosh(x)


@elementwise(np.cosh)
def d_cosh(ans, x):
    return np.sinh(x)


@elementwise(np.tanh)
def d_tanh(ans, x):
    return 1.0 - ans * ans


@elementwise(np.arcsinh)
def d_arcsinh(ans, x):
    return 1.0 / np.sqrt(x * x + 1.0)


# sqrt(x - 1) sqrt(x + 1), not sqrt(x * x - 1): the same for real x > 1, and on complex x the
# one whose branch matches numpy's arccosh (they differ where Re x < 0).
@elementwise(np.arccosh)
def d_arccosh(ans, x):
    return 1.0 / (np.sqrt(x - 1.0) * np.sqrt(x + 1.0))


@elementwise(np.arctanh)
def d_arctanh(ans, x):
    return 1.0 / (1.0 - x * x)


# sinc(x) = sin(pi x) / (pi x): the derivative (cos(pi x) - sinc(x)) / x, 0 at x = 0.  Exact at
# first order everywhere; the second derivative is exact away from x = 0.
@elementwise(np.sinc)
def d_sinc(ans, x):
    return np.where(x == 0, 0.0, (np.cos(np.pi * x) - ans) / np.where(x == 0, 1.0, x))
