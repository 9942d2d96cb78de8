"""Rules for Python's ``math`` module (scalar code).

The transpiler inlines these into fast scalar loops, so they use ``math`` functions and plain
float arithmetic only: no numpy, no ``unbroadcast``.  Python float semantics apply: where the
derivative is infinite (``log`` at 0, ``sqrt`` at 0 with a nonzero incoming gradient, ``asin``
at +-1) the rule raises ``ZeroDivisionError`` as the plain formula would.  Following TF,
``sqrt``'s gradient is 0 when the incoming gradient is 0, ``fabs`` has gradient 0 at 0 and
``pow(x, y)`` has d/dy = 0 at x = 0.  ``math.log(x, base)`` is supported for both arguments.
"""

import math

from .registry import define


def exp_vjp(g, ans, x):
    return g * ans


def exp_jvp(t, ans, x):
    return t * ans


define(math.exp, vjp=(exp_vjp,), jvp=(exp_jvp,))


def expm1_vjp(g, ans, x):
    return g * (ans + 1.0)


def expm1_jvp(t, ans, x):
    return t * (ans + 1.0)


define(math.expm1, vjp=(expm1_vjp,), jvp=(expm1_jvp,))


def log_vjp(g, ans, x, base=None):
    if base is None:
        return g / x
    return g / (x * math.log(base))


def log_vjp_base(g, ans, x, base=None):
    return -g * ans / (base * math.log(base))


def log_jvp(t, ans, x, base=None):
    if base is None:
        return t / x
    return t / (x * math.log(base))


def log_jvp_base(t, ans, x, base=None):
    return -t * ans / (base * math.log(base))


define(math.log, vjp=(log_vjp, log_vjp_base), jvp=(log_jvp, log_jvp_base))


def log2_vjp(g, ans, x):
    return g / (x * 0.6931471805599453)


def log2_jvp(t, ans, x):
    return t / (x * 0.6931471805599453)


define(math.log2, vjp=(log2_vjp,), jvp=(log2_jvp,))


def log10_vjp(g, ans, x):
    return g / (x * 2.302585092994046)


def log10_jvp(t, ans, x):
    return t / (x * 2.302585092994046)


define(math.log10, vjp=(log10_vjp,), jvp=(log10_jvp,))


def log1p_vjp(g, ans, x):
    return g / (x + 1.0)


def log1p_jvp(t, ans, x):
    return t / (x + 1.0)


define(math.log1p, vjp=(log1p_vjp,), jvp=(log1p_jvp,))


def sqrt_vjp(g, ans, x):
    return g / (2.0 * ans) if g != 0 else 0.0 * g


def sqrt_jvp(t, ans, x):
    return t / (2.0 * ans) if t != 0 else 0.0 * t


define(math.sqrt, vjp=(sqrt_vjp,), jvp=(sqrt_jvp,))


def pow_vjp_x(g, ans, x, y):
    return g * y * math.pow(x, y - 1.0) if y != 0 else 0.0 * g


def pow_vjp_y(g, ans, x, y):
    return g * ans * math.log(x) if x != 0 else 0.0 * g


def pow_jvp_x(t, ans, x, y):
    return t * y * math.pow(x, y - 1.0) if y != 0 else 0.0 * t


def pow_jvp_y(t, ans, x, y):
    return t * ans * math.log(x) if x != 0 else 0.0 * t


define(math.pow, vjp=(pow_vjp_x, pow_vjp_y), jvp=(pow_jvp_x, pow_jvp_y))


def fabs_vjp(g, ans, x):
    return g * ((x > 0) - (x < 0))


def fabs_jvp(t, ans, x):
    return t * ((x > 0) - (x < 0))


define(math.fabs, vjp=(fabs_vjp,), jvp=(fabs_jvp,))


def sin_vjp(g, ans, x):
    return g * math.cos(x)


def sin_jvp(t, ans, x):
    return t * math.cos(x)


define(math.sin, vjp=(sin_vjp,), jvp=(sin_jvp,))


def cos_vjp(g, ans, x):
    return -g * math.sin(x)


def cos_jvp(t, ans, x):
    return -t * math.sin(x)


define(math.cos, vjp=(cos_vjp,), jvp=(cos_jvp,))


def tan_vjp(g, ans, x):
    return g / (math.cos(x) * math.cos(x))


def tan_jvp(t, ans, x):
    return t / (math.cos(x) * math.cos(x))


define(math.tan, vjp=(tan_vjp,), jvp=(tan_jvp,))


def asin_vjp(g, ans, x):
    return g / math.sqrt(1.0 - x * x)


def asin_jvp(t, ans, x):
    return t / math.sqrt(1.0 - x * x)


define(math.asin, vjp=(asin_vjp,), jvp=(asin_jvp,))


def acos_vjp(g, ans, x):
    return -g / math.sqrt(1.0 - x * x)


def acos_jvp(t, ans, x):
    return -t / math.sqrt(1.0 - x * x)


define(math.acos, vjp=(acos_vjp,), jvp=(acos_jvp,))


def atan_vjp(g, ans, x):
    return g / (1.0 + x * x)


def atan_jvp(t, ans, x):
    return t / (1.0 + x * x)


define(math.atan, vjp=(atan_vjp,), jvp=(atan_jvp,))


def atan2_vjp_y(g, ans, y, x):
    return g * x / (x * x + y * y)


def atan2_vjp_x(g, ans, y, x):
    return -g * y / (x * x + y * y)


def atan2_jvp_y(t, ans, y, x):
    return t * x / (x * x + y * y)


def atan2_jvp_x(t, ans, y, x):
    return -t * y / (x * x + y * y)


define(math.atan2, vjp=(atan2_vjp_y, atan2_vjp_x), jvp=(atan2_jvp_y, atan2_jvp_x))


def sinh_vjp(g, ans, x):
    return g * math.cosh(x)


def sinh_jvp(t, ans, x):
    return t * math.cosh(x)


define(math.sinh, vjp=(sinh_vjp,), jvp=(sinh_jvp,))


def cosh_vjp(g, ans, x):
    return g * math.sinh(x)


def cosh_jvp(t, ans, x):
    return t * math.sinh(x)


define(math.cosh, vjp=(cosh_vjp,), jvp=(cosh_jvp,))


def tanh_vjp(g, ans, x):
    return g * (1.0 - ans * ans)


def tanh_jvp(t, ans, x):
    return t * (1.0 - ans * ans)


define(math.tanh, vjp=(tanh_vjp,), jvp=(tanh_jvp,))


def asinh_vjp(g, ans, x):
    return g / math.sqrt(x * x + 1.0)


def asinh_jvp(t, ans, x):
    return t / math.sqrt(x * x + 1.0)


define(math.asinh, vjp=(asinh_vjp,), jvp=(asinh_jvp,))


def acosh_vjp(g, ans, x):
    return g / math.sqrt(x * x - 1.0)


def acosh_jvp(t, ans, x):
    return t / math.sqrt(x * x - 1.0)


define(math.acosh, vjp=(acosh_vjp,), jvp=(acosh_jvp,))


def atanh_vjp(g, ans, x):
    return g / (1.0 - x * x)


def atanh_jvp(t, ans, x):
    return t / (1.0 - x * x)


define(math.atanh, vjp=(atanh_vjp,), jvp=(atanh_jvp,))

# math.hypot (any number of coordinates) is in ``pyspecial``.
