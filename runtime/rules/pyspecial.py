"""Rules for the rest of Python's ``math`` module and the differentiable builtins: erf, erfc,
gamma, lgamma, radians, degrees, copysign, fmod, remainder, ldexp, cbrt and exp2 (3.11+),
dist, prod, fsum, n-ary hypot, frexp, modf; builtins pow, max, min, float, divmod.

Like ``pymath`` these are scalar rules: ``math`` calls and float arithmetic only.  ``max`` and
``min`` send the gradient to the argument (or item) they returned: the first maximal one.
"""

import builtins
import math

from .containers import Grads, spread, total
from .registry import define
from .special import digamma
from .support import items_like

_TWO_OVER_SQRT_PI = 1.1283791670955126


def erf_vjp(g, ans, x):
    return g * _TWO_OVER_SQRT_PI * math.exp(-x * x)


def erf_jvp(t, ans, x):
    return t * _TWO_OVER_SQRT_PI * math.exp(-x * x)


define(math.erf, vjp=(erf_vjp,), jvp=(erf_jvp,))


def erfc_vjp(g, ans, x):
    return -g * _TWO_OVER_SQRT_PI * math.exp(-x * x)


def erfc_jvp(t, ans, x):
    return -t * _TWO_OVER_SQRT_PI * math.exp(-x * x)


define(math.erfc, vjp=(erfc_vjp,), jvp=(erfc_jvp,))


def gamma_vjp(g, ans, x):
    return g * ans * digamma(x)


def gamma_jvp(t, ans, x):
    return t * ans * digamma(x)


define(math.gamma, vjp=(gamma_vjp,), jvp=(gamma_jvp,))


def lgamma_vjp(g, ans, x):
    return g * digamma(x)


def lgamma_jvp(t, ans, x):
    return t * digamma(x)


define(math.lgamma, vjp=(lgamma_vjp,), jvp=(lgamma_jvp,))


def radians_vjp(g, ans, x):
    return g * 0.017453292519943295


def radians_jvp(t, ans, x):
    return t * 0.017453292519943295


define(math.radians, vjp=(radians_vjp,), jvp=(radians_jvp,))


def degrees_vjp(g, ans, x):
    return g * 57.29577951308232


def degrees_jvp(t, ans, x):
    return t * 57.29577951308232


define(math.degrees, vjp=(degrees_vjp,), jvp=(degrees_jvp,))


def copysign_vjp_x(g, ans, x, y):
    return g * math.copysign(1.0, x) * math.copysign(1.0, y)


def copysign_vjp_y(g, ans, x, y):
    return 0.0 * g


def copysign_jvp_x(t, ans, x, y):
    return t * math.copysign(1.0, x) * math.copysign(1.0, y)


def copysign_jvp_y(t, ans, x, y):
    return 0.0 * t


define(math.copysign, vjp=(copysign_vjp_x, copysign_vjp_y), jvp=(copysign_jvp_x, copysign_jvp_y))


# fmod(x, y) = x - trunc(x / y) * y;  remainder(x, y) = x - n * y with n = (x - ans) / y
def fmod_vjp_x(g, ans, x, y):
    return g


def fmod_vjp_y(g, ans, x, y):
    return -g * math.trunc(x / y)


def fmod_jvp_x(t, ans, x, y):
    return t


def fmod_jvp_y(t, ans, x, y):
    return -t * math.trunc(x / y)


define(math.fmod, vjp=(fmod_vjp_x, fmod_vjp_y), jvp=(fmod_jvp_x, fmod_jvp_y))


def remainder_vjp_y(g, ans, x, y):
    return -g * round((x - ans) / y)


def remainder_jvp_y(t, ans, x, y):
    return -t * round((x - ans) / y)


define(math.remainder, vjp=(fmod_vjp_x, remainder_vjp_y), jvp=(fmod_jvp_x, remainder_jvp_y))


def ldexp_vjp(g, ans, x, i):
    return g * math.ldexp(1.0, i)


def ldexp_jvp(t, ans, x, i):
    return t * math.ldexp(1.0, i)


define(math.ldexp, vjp=(ldexp_vjp, None), jvp=(ldexp_jvp, None))


def cbrt_vjp(g, ans, x):
    return g / (3.0 * ans * ans)


def cbrt_jvp(t, ans, x):
    return t / (3.0 * ans * ans)


def exp2_vjp(g, ans, x):
    return g * ans * 0.6931471805599453


def exp2_jvp(t, ans, x):
    return t * ans * 0.6931471805599453


if hasattr(math, "cbrt"):           # Python 3.11+
    define(math.cbrt, vjp=(cbrt_vjp,), jvp=(cbrt_jvp,))
    define(math.exp2, vjp=(exp2_vjp,), jvp=(exp2_jvp,))


# dist(p, q) = sqrt(sum((p_i - q_i)^2)): one cotangent per coordinate (a list)
def dist_vjp_p(g, ans, p, q):
    return [g * (a - b) / ans for a, b in zip(p, q)]


def dist_vjp_q(g, ans, p, q):
    return [g * (b - a) / ans for a, b in zip(p, q)]


def dist_jvp_p(t, ans, p, q):
    return math.fsum(ta * (a - b) for ta, a, b in zip(t, p, q)) / ans


def dist_jvp_q(t, ans, p, q):
    return math.fsum(tb * (b - a) for tb, a, b in zip(t, p, q)) / ans


define(math.dist, vjp=(dist_vjp_p, dist_vjp_q), jvp=(dist_jvp_p, dist_jvp_q))


# prod(items, start=1): each item's cotangent is the product of all the others (exact with zeros)
def prod_vjp_items(g, ans, iterable, start=1):
    items = list(iterable)
    return [g * start * math.prod(items[:i]) * math.prod(items[i + 1:]) for i in range(len(items))]


def prod_vjp_start(g, ans, iterable, start=1):
    return g * math.prod(iterable)


def prod_jvp_items(t, ans, iterable, start=1):
    items = list(iterable)
    return builtins.sum(ti * start * math.prod(items[:i]) * math.prod(items[i + 1:]) for i, ti in enumerate(t))


def prod_jvp_start(t, ans, iterable, start=1):
    return t * math.prod(iterable)


define(math.prod, vjp=(prod_vjp_items, prod_vjp_start), jvp=(prod_jvp_items, prod_jvp_start))


def fsum_vjp(g, ans, seq):
    return spread(g, seq)


def fsum_jvp(t, ans, seq):
    return total(t, seq)


define(math.fsum, vjp=(fsum_vjp,), jvp=(fsum_jvp,))


# hypot(*coordinates): d/dx_i = x_i / ans; up to 4 coordinates (more fail to bind: no silent zero)
def hypot_vjp_0(g, ans, x, y=0.0, z=0.0, w=0.0):
    return g * x / ans


def hypot_vjp_1(g, ans, x, y=0.0, z=0.0, w=0.0):
    return g * y / ans


def hypot_vjp_2(g, ans, x, y=0.0, z=0.0, w=0.0):
    return g * z / ans


def hypot_vjp_3(g, ans, x, y=0.0, z=0.0, w=0.0):
    return g * w / ans


HYPOT_RULES = (hypot_vjp_0, hypot_vjp_1, hypot_vjp_2, hypot_vjp_3)
define(math.hypot, vjp=HYPOT_RULES, jvp=HYPOT_RULES)        # linear in g: the JVP is the same product


# --- builtins ---------------------------------------------------------------------------------------

def pow_vjp_x(g, ans, base, exp, mod=None):
    return g * exp * base ** (exp - 1) if exp != 0 else 0.0 * g


def pow_vjp_y(g, ans, base, exp, mod=None):
    return g * ans * math.log(base) if base != 0 else 0.0 * g


def pow_jvp_x(t, ans, base, exp, mod=None):
    return t * exp * base ** (exp - 1) if exp != 0 else 0.0 * t


def pow_jvp_y(t, ans, base, exp, mod=None):
    return t * ans * math.log(base) if base != 0 else 0.0 * t


define(builtins.pow, vjp=(pow_vjp_x, pow_vjp_y), jvp=(pow_jvp_x, pow_jvp_y))


def float_vjp(g, ans, x=0.0):
    return g


def float_jvp(t, ans, x=0.0):
    return t


define(builtins.float, vjp=(float_vjp,), jvp=(float_jvp,))


def chosen(ans, args, key=None):
    """The index of the argument (or of the item, for one iterable) that max/min returned."""
    items = list(args[0]) if len(args) == 1 else list(args)
    if key is not None:
        raise NotImplementedError("max/min with key= have no derivative rule")
    for i, v in enumerate(items):
        if v is ans or v == ans:
            return i
    return -1


def extremum_part(i, g, ans, args, key):
    """The cotangent of argument i of max/min(*args) (a list of them for one iterable; none for a
    dict, whose keys max/min compare)."""
    if len(args) == 1 and isinstance(args[0], dict):
        return Grads()
    k = chosen(ans, args, key)
    if len(args) == 1:
        return [g if j == k else 0.0 * g for j in range(len(list(args[0])))]
    return g if i == k else 0.0 * g


def max_vjp_0(g, ans, *args, key=None, default=None):
    return extremum_part(0, g, ans, args, key)


def max_vjp_1(g, ans, *args, key=None, default=None):
    return extremum_part(1, g, ans, args, key)


def max_vjp_2(g, ans, *args, key=None, default=None):
    return extremum_part(2, g, ans, args, key)


def max_vjp_3(g, ans, *args, key=None, default=None):
    return extremum_part(3, g, ans, args, key)


def extremum_jvp_0(t, ans, *args, key=None, default=None):
    if len(args) == 1 and isinstance(args[0], dict):
        return 0.0          # a key: no derivative
    k = chosen(ans, args, key)
    if len(args) == 1:
        return list(t)[k]
    return t if k == 0 else 0.0 * t


def extremum_jvp_1(t, ans, *args, key=None, default=None):
    return t if chosen(ans, args, key) == 1 else 0.0 * t


def extremum_jvp_2(t, ans, *args, key=None, default=None):
    return t if chosen(ans, args, key) == 2 else 0.0 * t


def extremum_jvp_3(t, ans, *args, key=None, default=None):
    return t if chosen(ans, args, key) == 3 else 0.0 * t


EXTREMUM_VJPS = (max_vjp_0, max_vjp_1, max_vjp_2, max_vjp_3)
EXTREMUM_JVPS = (extremum_jvp_0, extremum_jvp_1, extremum_jvp_2, extremum_jvp_3)
define(builtins.max, vjp=EXTREMUM_VJPS, jvp=EXTREMUM_JVPS)
define(builtins.min, vjp=EXTREMUM_VJPS, jvp=EXTREMUM_JVPS)


# sumprod(p, q) = sum(p_i * q_i) (Python 3.12+); fma(x, y, z) = x * y + z (3.13+)
def sumprod_vjp_p(g, ans, p, q):
    return [g * b for b in q]


def sumprod_vjp_q(g, ans, p, q):
    return [g * a for a in p]


def sumprod_jvp_p(t, ans, p, q):
    return math.fsum(ta * b for ta, b in zip(t, q))


def sumprod_jvp_q(t, ans, p, q):
    return math.fsum(a * tb for a, tb in zip(p, t))


def fma_vjp_x(g, ans, x, y, z):
    return g * y


def fma_vjp_y(g, ans, x, y, z):
    return g * x


def fma_vjp_z(g, ans, x, y, z):
    return g


def fma_jvp_x(t, ans, x, y, z):
    return t * y


def fma_jvp_y(t, ans, x, y, z):
    return x * t


def fma_jvp_z(t, ans, x, y, z):
    return t


if hasattr(math, "sumprod"):
    define(math.sumprod, vjp=(sumprod_vjp_p, sumprod_vjp_q), jvp=(sumprod_jvp_p, sumprod_jvp_q))
if hasattr(math, "fma"):
    define(math.fma, vjp=(fma_vjp_x, fma_vjp_y, fma_vjp_z), jvp=(fma_jvp_x, fma_jvp_y, fma_jvp_z))


# --- several results: math.frexp, math.modf, builtins.divmod ----------------------------------------
# frexp(x) = (m, e) with x = m * 2**e: between powers of two the mantissa is x times the constant
# 2**-e; modf(x) = (fraction, integral part); divmod(x, y) = (x // y, x % y).  Integral parts and
# exponents are piecewise constant (no gradient).  A tuple's cotangent has one part per item
# (items_like: zero for an item nothing read).
def frexp_vjp(g, ans, x):
    return items_like(g, ans)[0] * math.ldexp(1.0, -ans[1])


def frexp_jvp(t, ans, x):
    return (t * math.ldexp(1.0, -ans[1]), 0.0 * t)


def modf_vjp(g, ans, x):
    return items_like(g, ans)[0]


def modf_jvp(t, ans, x):
    return (t, 0.0 * t)


def divmod_vjp_x(g, ans, x, y):
    return items_like(g, ans)[1]


def divmod_vjp_y(g, ans, x, y):
    return -items_like(g, ans)[1] * ans[0]


def divmod_jvp_x(t, ans, x, y):
    return (0.0 * t, t)


def divmod_jvp_y(t, ans, x, y):
    return (0.0 * t, -t * ans[0])


define(math.frexp, vjp=(frexp_vjp,), jvp=(frexp_jvp,))
define(math.modf, vjp=(modf_vjp,), jvp=(modf_jvp,))
define(builtins.divmod, vjp=(divmod_vjp_x, divmod_vjp_y), jvp=(divmod_jvp_x, divmod_jvp_y))
