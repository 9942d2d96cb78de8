"""Rules for elementwise numpy functions: exp/log family, powers and roots, abs/sign and
remainders.  Trigonometric and hyperbolic functions are in ``trig``, selections (maximum,
where, clip, ...) in ``selection``, complex parts in ``complexes``.

Edge behaviour follows TensorFlow (see shared/TF-BEHAVIOUR.md, "Values at the edges"):

* ``abs`` has gradient ``sign(x)``, so 0 at x = 0; ``sign`` has a zero gradient (not None).
* ``sqrt``'s gradient is 0 wherever the incoming gradient is 0, even at x = 0.
* ``mod`` (floor-mod) follows TF's FloorMod gradient: d/dx = 1, d/dy = -floor(x / y).
"""

import builtins
import operator

import numpy as np

from .registry import define
from .support import broadcast_like, items_like, unbroadcast


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


# log2(2**x + 2**y)
def logaddexp2_vjp_x(g, ans, x, y):
    return unbroadcast(g * np.exp2(x - ans), x)


def logaddexp2_vjp_y(g, ans, x, y):
    return unbroadcast(g * np.exp2(y - ans), y)


def logaddexp2_jvp_x(t, ans, x, y):
    return broadcast_like(t * np.exp2(x - ans), ans)


def logaddexp2_jvp_y(t, ans, x, y):
    return broadcast_like(t * np.exp2(y - ans), ans)


define(
    np.logaddexp2,
    vjp=(logaddexp2_vjp_x, logaddexp2_vjp_y),
    jvp=(logaddexp2_jvp_x, logaddexp2_jvp_y),
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

SIGN_IS_PHASE = bool(np.sign(1j) == 1j)   # numpy >= 2; numpy 1.x gives the real part's sign

# For complex x (|z| is real) the cotangent is conj(z) / |z| (see ``complexes``): conj(sign(z))
# in numpy 2, which is sign(x) for real x -- one branch-free rule the transpiler inlines.
def abs_vjp(g, ans, x):
    return g * np.conj(np.sign(x))      # inlined by the transpiler: no branch, no ufunc call


def abs_jvp(t, ans, x):
    return np.real(np.multiply(np.conj(np.sign(x)), t))


if not SIGN_IS_PHASE:       # numpy 1.x: sign(z) is the sign of the real part
    def abs_vjp(g, ans, x):  # noqa: F811
        if np.iscomplexobj(x):
            return g * np.conj(x) / np.where(ans == 0, 1.0, ans)
        return g * np.sign(x)

    def abs_jvp(t, ans, x):  # noqa: F811
        if np.iscomplexobj(x):
            return np.real(np.conj(x) * t) / np.where(ans == 0, 1.0, ans)
        return t * np.sign(x)


define((np.absolute, np.abs, builtins.abs, operator.abs), vjp=(abs_vjp,), jvp=(abs_jvp,))


def fabs_vjp(g, ans, x):
    return g * np.sign(x)


def fabs_jvp(t, ans, x):
    return t * np.sign(x)


define(np.fabs, vjp=(fabs_vjp,), jvp=(fabs_jvp,))


# (The ufuncs, not operators: on the tape's second order these run on tensors, whose operators
# refuse to mix real and complex dtypes as TF's do.)
# sign is piecewise constant on reals (TF: a zero gradient, not None).  On complex z it is the
# phase w = z / |z|, smooth away from 0 and not holomorphic: dw = (dz - w**2 conj(dz)) / (2|z|),
# so with the ``complexes`` convention the cotangent of z is (g - conj(g) conj(w)**2) / (2|z|).
# abs' rules read sign, so this is what makes second order through |z| exact.  At z = 0: zero.
def sign_vjp(g, ans, x):
    if type(x) is float:
        return 0.0          # the common scalar case without numpy's dispatch (2 us a call)
    if np.iscomplexobj(x) and SIGN_IS_PHASE:
        return phase_turn(g, np.conj(ans), x)
    return np.zeros_like(g)


def sign_jvp(t, ans, x):
    if type(x) is float:
        return 0.0
    if np.iscomplexobj(x) and SIGN_IS_PHASE:
        return phase_turn(t, ans, x)
    return np.zeros_like(t)


def phase_turn(v, w, x):
    """(v - conj(v) w**2) / (2|x|), and 0 where x == 0: the phase's tangent for w = sign(x), its
    cotangent for w = conj(sign(x))."""
    r = np.abs(x)
    turned = np.subtract(v, np.multiply(np.conj(v), w ** 2))
    return np.where(r == 0, 0.0, np.divide(turned, np.multiply(2.0, np.where(r == 0, 1.0, r))))


define(np.sign, vjp=(sign_vjp,), jvp=(sign_jvp,))


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


# float_power: x ** y computed in float64 (same derivative as power; d/dy is 0 where x == 0)
def float_power_vjp_x(g, ans, x, y):
    return unbroadcast(g * y * np.float_power(x, np.where(y, y - 1, 1)), x)


def float_power_vjp_y(g, ans, x, y):
    return unbroadcast(g * ans * np.log(np.where(x == 0, 1, x)), y)


def float_power_jvp_x(t, ans, x, y):
    return broadcast_like(t * y * np.float_power(x, np.where(y, y - 1, 1)), ans)


def float_power_jvp_y(t, ans, x, y):
    return broadcast_like(t * ans * np.log(np.where(x == 0, 1, x)), ans)


define(np.float_power, vjp=(float_power_vjp_x, float_power_vjp_y), jvp=(float_power_jvp_x, float_power_jvp_y))


# ldexp(x, i) = x * 2**i (i is an integer: no gradient)
def ldexp_vjp(g, ans, x1, x2):
    return unbroadcast(g * np.exp2(x2), x1)


def ldexp_jvp(t, ans, x1, x2):
    return broadcast_like(t * np.exp2(x2), ans)


define(np.ldexp, vjp=(ldexp_vjp, None), jvp=(ldexp_jvp, None))


# modf(x) = (x - trunc(x), trunc(x)) and divmod(x, y) = (x // y, x % y): tuple results, whose
# cotangent is one per item (items_like fills the missing ones with zeros)
def modf_vjp(g, ans, x):
    return items_like(g, ans)[0]


def modf_jvp(t, ans, x):
    return (t, np.zeros_like(t))


define(np.modf, vjp=(modf_vjp,), jvp=(modf_jvp,))


# frexp(x) = (m, e) with x = m * 2**e: between powers of two the mantissa is x times the constant
# 2**-e (the exponent is an integer: no gradient)
def frexp_vjp(g, ans, x):
    return items_like(g, ans)[0] * np.exp2(-ans[1])


def frexp_jvp(t, ans, x):
    return (t * np.exp2(-ans[1]), np.zeros_like(t))


define(np.frexp, vjp=(frexp_vjp,), jvp=(frexp_jvp,))


def divmod_vjp_x(g, ans, x1, x2):
    return unbroadcast(items_like(g, ans)[1], x1)


def divmod_vjp_y(g, ans, x1, x2):
    return unbroadcast(-items_like(g, ans)[1] * ans[0], x2)


def divmod_jvp_x(t, ans, x1, x2):
    return (np.zeros_like(ans[0]), broadcast_like(t, ans[1]))


def divmod_jvp_y(t, ans, x1, x2):
    return (np.zeros_like(ans[0]), broadcast_like(-t * ans[0], ans[1]))


define(np.divmod, vjp=(divmod_vjp_x, divmod_vjp_y), jvp=(divmod_jvp_x, divmod_jvp_y))
