"""Rules for Python's ``math`` module (scalar code).

The transpiler inlines these into fast scalar loops, so they use ``math`` functions and plain
float arithmetic only: no numpy, no ``unbroadcast``.  Python float semantics apply: where the
derivative is infinite (``log`` at 0, ``sqrt`` at 0 with a nonzero incoming gradient, ``asin``
at +-1) the rule raises ``ZeroDivisionError`` as the plain formula would.  Following TF,
``sqrt``'s gradient is 0 when the incoming gradient is 0, ``fabs`` has gradient 0 at 0 and
``pow(x, y)`` has d/dy = 0 at x = 0.  ``math.log(x, base)`` is supported for both arguments.
"""

import math

from . import elementwise, trig
from .forms import jvp_like, scalar
from .registry import define


# exp, expm1, log2, log10, log1p: their numpy derivatives (elementwise), with math's functions
for _fn, _d in ((math.exp, elementwise.d_exp), (math.expm1, elementwise.d_expm1), (math.log2, elementwise.d_log2),
                (math.log10, elementwise.d_log10), (math.log1p, elementwise.d_log1p)):
    scalar(_fn, _d)


# The rules below read the cotangent itself (TF's zeros, Python's branches); each is linear in it,
# so the JVP is the same map (``jvp_like``).
def log_vjp(g, ans, x, base=None):
    if base is None:
        return g / x
    return g / (x * math.log(base))


def log_vjp_base(g, ans, x, base=None):
    return -g * ans / (base * math.log(base))


define(math.log, vjp=(log_vjp, log_vjp_base), jvp=jvp_like(log_vjp, log_vjp_base))


def sqrt_vjp(g, ans, x):
    return g / (2.0 * ans) if g != 0 else 0.0 * g


define(math.sqrt, vjp=(sqrt_vjp,), jvp=jvp_like(sqrt_vjp))


def pow_vjp_x(g, ans, x, y):
    return g * y * math.pow(x, y - 1.0) if y != 0 else 0.0 * g


def pow_vjp_y(g, ans, x, y):
    return g * ans * math.log(x) if x != 0 else 0.0 * g


define(math.pow, vjp=(pow_vjp_x, pow_vjp_y), jvp=jvp_like(pow_vjp_x, pow_vjp_y))


@scalar(math.fabs)
def d_fabs(ans, x):
    return (x > 0) - (x < 0)


# the trigonometric and hyperbolic functions: their numpy derivatives (trig), with math's functions
for _fn, _d in ((math.sin, trig.d_sin), (math.cos, trig.d_cos), (math.tan, trig.d_tan), (math.asin, trig.d_arcsin),
                (math.acos, trig.d_arccos), (math.atan, trig.d_arctan), (math.atan2, trig.d_arctan2),
                (math.sinh, trig.d_sinh), (math.cosh, trig.d_cosh), (math.tanh, trig.d_tanh),
                (math.asinh, trig.d_arcsinh), (math.acosh, trig.d_arccosh), (math.atanh, trig.d_arctanh)):
    scalar(_fn, _d)

# math.hypot (any number of coordinates) is in ``pyspecial``.
