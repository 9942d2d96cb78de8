"""Rules for the rest of Python's ``math`` module and the differentiable builtins: erf, erfc,
gamma, lgamma, radians, degrees, copysign, fmod, remainder, ldexp, cbrt and exp2 (3.11+),
dist, prod, fsum, n-ary hypot, frexp, modf; builtins pow, max, min, float, divmod.

Like ``pymath`` these are scalar rules: ``math`` calls and float arithmetic only.  ``max`` and
``min`` send the gradient to the argument (or item) they returned: the first maximal one.
"""

import builtins
import math

from . import elementwise, special, trig
from .containers import Grads, spread, total
from .forms import jvp_like, scalar
from .registry import define
from .special import _TWO_OVER_SQRT_PI, digamma  # noqa: F401  (made rules read them)
from .support import items_like


# the numpy functions' derivatives, with math's functions
for _fn, _d in ((math.erf, special.d_erf), (math.erfc, special.d_erfc), (math.lgamma, special.d_lgamma),
                (math.radians, trig.d_deg2rad), (math.degrees, trig.d_rad2deg)):
    scalar(_fn, _d)


@scalar(math.gamma)
def d_gamma(ans, x):
    return ans * digamma(x)


@scalar(math.copysign)
def d_copysign(ans, x, y):
    return math.copysign(1.0, x) * math.copysign(1.0, y), 0.0


# fmod(x, y) = x - trunc(x / y) * y;  remainder(x, y) = x - n * y with n = (x - ans) / y
@scalar(math.fmod)
def d_fmod(ans, x, y):
    return 1.0, -math.trunc(x / y)


@scalar(math.remainder)
def d_remainder(ans, x, y):
    return 1.0, -round((x - ans) / y)


@scalar(math.ldexp)
def d_ldexp(ans, x, i):
    return math.ldexp(1.0, i), None


if hasattr(math, "cbrt"):           # Python 3.11+
    scalar(math.cbrt, elementwise.d_cbrt)
    scalar(math.exp2, elementwise.d_exp2)


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


define(math.prod, vjp=(prod_vjp_items, prod_vjp_start), jvp=(prod_jvp_items,) + jvp_like(prod_vjp_start))


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


define(builtins.pow, vjp=(pow_vjp_x, pow_vjp_y), jvp=jvp_like(pow_vjp_x, pow_vjp_y))


def float_vjp(g, ans, x=0.0):
    return g


define(builtins.float, vjp=(float_vjp,), jvp=jvp_like(float_vjp))


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


if hasattr(math, "sumprod"):
    define(math.sumprod, vjp=(sumprod_vjp_p, sumprod_vjp_q), jvp=(sumprod_jvp_p, sumprod_jvp_q))
if hasattr(math, "fma"):
    @scalar(math.fma)
    def d_fma(ans, x, y, z):
        return y, x, 1.0


# --- several results: math.frexp, math.modf, builtins.divmod ----------------------------------------
# frexp(x) = (m, e) with x = m * 2**e: between powers of two the mantissa is x times the constant
# 2**-e; modf(x) = (fraction, integral part); divmod(x, y) = (x // y, x % y).  Integral parts and
# exponents are piecewise constant (no gradient).  A tuple's cotangent has one part per item
# (items_like: zero for an item nothing read).
def frexp_vjp(g, ans, x):
    return items_like(g, ans)[0] * math.ldexp(1.0, -ans[1])


def frexp_jvp(t, ans, x):
    return (t * math.ldexp(1.0, -ans[1]), 0.0 * t)


def divmod_vjp_x(g, ans, x, y):
    return items_like(g, ans)[1]


def divmod_vjp_y(g, ans, x, y):
    return -items_like(g, ans)[1] * ans[0]


def divmod_jvp_x(t, ans, x, y):
    return (0.0 * t, t)


def divmod_jvp_y(t, ans, x, y):
    return (0.0 * t, -t * ans[0])


define(math.frexp, vjp=(frexp_vjp,), jvp=(frexp_jvp,))
define(math.modf, vjp=(elementwise.modf_vjp,), jvp=(elementwise.modf_jvp,))     # numpy's modf rules
define(builtins.divmod, vjp=(divmod_vjp_x, divmod_vjp_y), jvp=(divmod_jvp_x, divmod_jvp_y))
