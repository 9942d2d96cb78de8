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

from .forms import elementwise, symmetric
from .registry import define
from .support import broadcast_like, items_like, unbroadcast


# --- exponentials and logarithms (each states its derivative once: ``forms.elementwise``) ----

@elementwise(np.exp)
def d_exp(ans, x):
    return ans


@elementwise(np.exp2)
def d_exp2(ans, x):
    return ans * 0.6931471805599453


@elementwise(np.expm1)
def d_expm1(ans, x):
    return ans + 1.0


@elementwise(np.log)
def d_log(ans, x):
    return 1.0 / x


@elementwise(np.log2)
def d_log2(ans, x):
    return 1.0 / (x * 0.6931471805599453)


@elementwise(np.log10)
def d_log10(ans, x):
    return 1.0 / (x * 2.302585092994046)


@elementwise(np.log1p)
def d_log1p(ans, x):
    return 1.0 / (x + 1.0)


@elementwise(np.logaddexp)          # log(exp(x) + exp(y))
def d_logaddexp(ans, x, y):
    return np.exp(x - ans), np.exp(y - ans)


@elementwise(np.logaddexp2)         # log2(2**x + 2**y)
def d_logaddexp2(ans, x, y):
    return np.exp2(x - ans), np.exp2(y - ans)


# --- powers and roots -------------------------------------------------------------------

# TF: the gradient is 0 where the incoming gradient is 0, also at x = 0 (no 0 * inf = NaN) and
# at x < 0 (no 0 * NaN: a tf.where over sqrt does not leak NaN). Only where g is 0 and ans is 0
# or NaN is the denominator replaced, so the rule stays exact (and smoothly differentiable in g
# and ans) everywhere else.
@symmetric(np.sqrt)
def sqrt_vjp(g, ans, x):
    return g / (2.0 * np.where(np.logical_and(g == 0, np.logical_not(ans > 0)), 1.0, ans))


@elementwise(np.cbrt)
def d_cbrt(ans, x):
    return 1.0 / (3.0 * ans * ans)


@elementwise(np.square)
def d_square(ans, x):
    return 2.0 * x


@elementwise(np.reciprocal)
def d_reciprocal(ans, x):
    return -ans * ans


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


@elementwise(np.fabs)
def d_fabs(ans, x):
    return np.sign(x)


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

@elementwise((np.remainder, np.mod, operator.mod), name="mod")
def d_mod(ans, x, y):
    return 1, -np.floor_divide(x, y)


@elementwise(np.fmod)               # fmod truncates instead: d/dy = -trunc(x / y)
def d_fmod(ans, x, y):
    return 1, -np.trunc(x / y)


# float_power: x ** y computed in float64 (same derivative as power; d/dy is 0 where x == 0)
@elementwise(np.float_power)
def d_float_power(ans, x, y):
    return y * np.float_power(x, np.where(y, y - 1, 1)), ans * np.log(np.where(x == 0, 1, x))


@elementwise(np.ldexp)              # ldexp(x, i) = x * 2**i (i is an integer: no gradient)
def d_ldexp(ans, x1, x2):
    return np.exp2(x2), None


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
