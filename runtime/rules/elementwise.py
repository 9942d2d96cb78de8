"""Rules for elementwise numpy functions: exp/log family, roots, trigonometric and hyperbolic
functions, abs/sign, maximum/minimum, where, clip and a few binary ufuncs.

Edge behaviour follows TensorFlow (see shared/TF-BEHAVIOUR.md, "Values at the edges"):

* ``abs`` has gradient ``sign(x)``, so 0 at x = 0; ``sign`` has a zero gradient (not None).
* ``sqrt``'s gradient is 0 wherever the incoming gradient is 0, even at x = 0.
* ``maximum``/``minimum``: at a tie the whole gradient goes to the first argument.
* ``clip`` passes the gradient exactly at the bounds, 0 strictly outside them.
* ``mod`` (floor-mod) follows TF's FloorMod gradient: d/dx = 1, d/dy = -floor(x / y).
"""

import builtins
import operator

import numpy as np

from .registry import define
from .support import broadcast_like, unbroadcast


# --- exponentials and logarithms --------------------------------------------------------

def exp_vjp(g, ans, x):
    return g * ans


def exp_jvp(t, ans, x):
    return t * ans


define(np.exp, vjp=(exp_vjp,), jvp=(exp_jvp,))


def exp2_vjp(g, ans, x):
    return g * ans * 0.6931471805599453


def exp2_jvp(t, ans, x):
    return t * ans * 0.6931471805599453


define(np.exp2, vjp=(exp2_vjp,), jvp=(exp2_jvp,))


def expm1_vjp(g, ans, x):
    return g * (ans + 1.0)


def expm1_jvp(t, ans, x):
    return t * (ans + 1.0)


define(np.expm1, vjp=(expm1_vjp,), jvp=(expm1_jvp,))


def log_vjp(g, ans, x):
    return g / x


def log_jvp(t, ans, x):
    return t / x


define(np.log, vjp=(log_vjp,), jvp=(log_jvp,))


def log2_vjp(g, ans, x):
    return g / (x * 0.6931471805599453)


def log2_jvp(t, ans, x):
    return t / (x * 0.6931471805599453)


define(np.log2, vjp=(log2_vjp,), jvp=(log2_jvp,))


def log10_vjp(g, ans, x):
    return g / (x * 2.302585092994046)


def log10_jvp(t, ans, x):
    return t / (x * 2.302585092994046)


define(np.log10, vjp=(log10_vjp,), jvp=(log10_jvp,))


def log1p_vjp(g, ans, x):
    return g / (x + 1.0)


def log1p_jvp(t, ans, x):
    return t / (x + 1.0)


define(np.log1p, vjp=(log1p_vjp,), jvp=(log1p_jvp,))


# log(exp(x) + exp(y))
def logaddexp_vjp_x(g, ans, x, y):
    return unbroadcast(g * np.exp(x - ans), x)


def logaddexp_vjp_y(g, ans, x, y):
    return unbroadcast(g * np.exp(y - ans), y)


def logaddexp_jvp_x(t, ans, x, y):
    return broadcast_like(t * np.exp(x - ans), ans)


def logaddexp_jvp_y(t, ans, x, y):
    return broadcast_like(t * np.exp(y - ans), ans)


define(
    np.logaddexp,
    vjp=(logaddexp_vjp_x, logaddexp_vjp_y),
    jvp=(logaddexp_jvp_x, logaddexp_jvp_y),
)


# --- powers and roots -------------------------------------------------------------------

# TF: the gradient is 0 where the incoming gradient is 0, also at x = 0 (no 0 * inf = NaN) and
# at x < 0 (no 0 * NaN: a tf.where over sqrt does not leak NaN). Only where g is 0 and ans is 0
# or NaN is the denominator replaced, so the rule stays exact (and smoothly differentiable in g
# and ans) everywhere else.
def sqrt_vjp(g, ans, x):
    return g / (2.0 * np.where(np.logical_and(g == 0, np.logical_not(ans > 0)), 1.0, ans))


def sqrt_jvp(t, ans, x):
    return t / (2.0 * np.where(np.logical_and(t == 0, np.logical_not(ans > 0)), 1.0, ans))


define(np.sqrt, vjp=(sqrt_vjp,), jvp=(sqrt_jvp,))


def cbrt_vjp(g, ans, x):
    return g / (3.0 * ans * ans)


def cbrt_jvp(t, ans, x):
    return t / (3.0 * ans * ans)


define(np.cbrt, vjp=(cbrt_vjp,), jvp=(cbrt_jvp,))


def square_vjp(g, ans, x):
    return g * 2.0 * x


def square_jvp(t, ans, x):
    return t * 2.0 * x


define(np.square, vjp=(square_vjp,), jvp=(square_jvp,))


def reciprocal_vjp(g, ans, x):
    return -g * ans * ans


def reciprocal_jvp(t, ans, x):
    return -t * ans * ans


define(np.reciprocal, vjp=(reciprocal_vjp,), jvp=(reciprocal_jvp,))


# --- sign and magnitude -----------------------------------------------------------------

def abs_vjp(g, ans, x):
    return g * np.sign(x)


def abs_jvp(t, ans, x):
    return t * np.sign(x)


define((np.absolute, np.abs, builtins.abs, operator.abs), vjp=(abs_vjp,), jvp=(abs_jvp,))


# TF: a zero gradient, not None.
def sign_vjp(g, ans, x):
    return np.zeros_like(g)


def sign_jvp(t, ans, x):
    return np.zeros_like(t)


define(np.sign, vjp=(sign_vjp,), jvp=(sign_jvp,))


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


def arccosh_vjp(g, ans, x):
    return g / np.sqrt(x * x - 1.0)


def arccosh_jvp(t, ans, x):
    return t / np.sqrt(x * x - 1.0)


define(np.arccosh, vjp=(arccosh_vjp,), jvp=(arccosh_jvp,))


def arctanh_vjp(g, ans, x):
    return g / (1.0 - x * x)


def arctanh_jvp(t, ans, x):
    return t / (1.0 - x * x)


define(np.arctanh, vjp=(arctanh_vjp,), jvp=(arctanh_jvp,))


# --- selection: maximum, minimum, where, clip -------------------------------------------

# TF: at a tie (x == y) the whole gradient goes to the first argument.
def maximum_vjp_x(g, ans, x, y):
    return unbroadcast(np.where(x >= y, g, 0.0), x)


def maximum_vjp_y(g, ans, x, y):
    return unbroadcast(np.where(x >= y, 0.0, g), y)


def maximum_jvp_x(t, ans, x, y):
    return broadcast_like(np.where(x >= y, t, 0.0), ans)


def maximum_jvp_y(t, ans, x, y):
    return broadcast_like(np.where(x >= y, 0.0, t), ans)


define(np.maximum, vjp=(maximum_vjp_x, maximum_vjp_y), jvp=(maximum_jvp_x, maximum_jvp_y))


def minimum_vjp_x(g, ans, x, y):
    return unbroadcast(np.where(x <= y, g, 0.0), x)


def minimum_vjp_y(g, ans, x, y):
    return unbroadcast(np.where(x <= y, 0.0, g), y)


def minimum_jvp_x(t, ans, x, y):
    return broadcast_like(np.where(x <= y, t, 0.0), ans)


def minimum_jvp_y(t, ans, x, y):
    return broadcast_like(np.where(x <= y, 0.0, t), ans)


define(np.minimum, vjp=(minimum_vjp_x, minimum_vjp_y), jvp=(minimum_jvp_x, minimum_jvp_y))


# np.where(cond, x, y): the condition gets no gradient.  (The one-argument form returns
# indices and has no differentiable argument.)
def where_vjp_x(g, ans, condition, x=None, y=None):
    return unbroadcast(np.where(condition, g, 0.0), x)


def where_vjp_y(g, ans, condition, x=None, y=None):
    return unbroadcast(np.where(condition, 0.0, g), y)


def where_jvp_x(t, ans, condition, x=None, y=None):
    return broadcast_like(np.where(condition, t, 0.0), ans)


def where_jvp_y(t, ans, condition, x=None, y=None):
    return broadcast_like(np.where(condition, 0.0, t), ans)


define(np.where, vjp=(None, where_vjp_x, where_vjp_y), jvp=(None, where_jvp_x, where_jvp_y))


# np.clip(a, a_min, a_max): the gradient passes where a lies within the bounds, bounds included
# (there ans == a exactly); a bound gets the gradient where a lies beyond it.
def clip_vjp_a(g, ans, a, a_min=None, a_max=None, out=None, min=None, max=None):
    return unbroadcast(np.where(ans == a, g, 0.0), a)


def clip_vjp_min(g, ans, a, a_min=None, a_max=None, out=None, min=None, max=None):
    return unbroadcast(np.where(np.logical_and(ans != a, ans == a_min), g, 0.0), a_min)


def clip_vjp_max(g, ans, a, a_min=None, a_max=None, out=None, min=None, max=None):
    return unbroadcast(np.where(np.logical_and(ans != a, ans == a_max), g, 0.0), a_max)


def clip_jvp_a(t, ans, a, a_min=None, a_max=None, out=None, min=None, max=None):
    return broadcast_like(np.where(ans == a, t, 0.0), ans)


def clip_jvp_min(t, ans, a, a_min=None, a_max=None, out=None, min=None, max=None):
    return broadcast_like(np.where(np.logical_and(ans != a, ans == a_min), t, 0.0), ans)


def clip_jvp_max(t, ans, a, a_min=None, a_max=None, out=None, min=None, max=None):
    return broadcast_like(np.where(np.logical_and(ans != a, ans == a_max), t, 0.0), ans)


define(
    np.clip,
    vjp=(clip_vjp_a, clip_vjp_min, clip_vjp_max),
    jvp=(clip_jvp_a, clip_jvp_min, clip_jvp_max),
)


# --- remainders (TF FloorMod gradient: d/dx = 1, d/dy = -floor(x / y)) -------------------

def mod_vjp_x(g, ans, x, y):
    return unbroadcast(g, x)


def mod_vjp_y(g, ans, x, y):
    return unbroadcast(-g * np.floor_divide(x, y), y)


def mod_jvp_x(t, ans, x, y):
    return broadcast_like(t, ans)


def mod_jvp_y(t, ans, x, y):
    return broadcast_like(-t * np.floor_divide(x, y), ans)


define((np.remainder, np.mod, operator.mod), vjp=(mod_vjp_x, mod_vjp_y), jvp=(mod_jvp_x, mod_jvp_y))


# fmod truncates instead: d/dy = -trunc(x / y)
def fmod_vjp_y(g, ans, x, y):
    return unbroadcast(-g * np.trunc(x / y), y)


def fmod_jvp_y(t, ans, x, y):
    return broadcast_like(-t * np.trunc(x / y), ans)


define(np.fmod, vjp=(mod_vjp_x, fmod_vjp_y), jvp=(mod_jvp_x, fmod_jvp_y))
