"""Specs for the ``math`` module and builtins: scalar rules on Python floats."""

import builtins
import math

from hypothesis import strategies as st

from . import add

# fn, domain per argument (lo, hi, signed)
MATH = [
    (math.exp, [(-2, 2)]), (math.expm1, [(-2, 2)]), (math.log, [(0.2, 3)]), (math.log, [(0.2, 3), (1.5, 4)]),
    (math.log2, [(0.2, 3)]), (math.log10, [(0.2, 3)]), (math.log1p, [(-0.8, 3)]), (math.sqrt, [(0.2, 3)]),
    (math.pow, [(0.3, 2), (-2, 2)]), (math.fabs, [(0.05, 2)]), (math.sin, [(-3, 3)]), (math.cos, [(-3, 3)]),
    (math.tan, [(-1.2, 1.2)]), (math.asin, [(-0.9, 0.9)]), (math.acos, [(-0.9, 0.9)]), (math.atan, [(-2, 2)]),
    (math.atan2, [(0.3, 2), (-2, -0.3)]), (math.sinh, [(-2, 2)]), (math.cosh, [(-2, 2)]), (math.tanh, [(-2, 2)]),
    (math.asinh, [(-2, 2)]), (math.acosh, [(1.2, 3)]), (math.atanh, [(-0.9, 0.9)]),
    (math.hypot, [(0.3, 2), (-2, -0.3)]), (math.hypot, [(0.3, 2), (-2, -0.3), (0.1, 1), (1, 2)]),
    (math.erf, [(-2, 2)]), (math.erfc, [(-2, 2)]), (math.gamma, [(0.3, 4)]), (math.gamma, [(-0.9, -0.1)]),
    (math.lgamma, [(0.3, 4)]), (math.radians, [(-3, 3)]), (math.degrees, [(-3, 3)]),
    (math.copysign, [(0.1, 2), (-2, -0.1)]), (math.fmod, [(-3, 3), (0.7, 2)]),
    (math.remainder, [(-3, 3), (0.7, 2)]), (math.ldexp, [(-2, 2)], [2]),
    (builtins.pow, [(0.3, 2), (-2, 2)]), (builtins.float, [(-2, 2)]),
    (builtins.max, [(-2, 2), (-2, 2), (-2, 2)]), (builtins.min, [(-2, 2), (-2, 2)]),
    (math.frexp, [(0.1, 3)]), (math.frexp, [(-3, -0.1)]), (math.modf, [(-3, 3)]),
    (builtins.divmod, [(-3, 3), (0.5, 2)]),
]
if hasattr(math, "cbrt"):
    MATH += [(math.cbrt, [(0.2, 3)]), (math.exp2, [(-2, 2)])]


def scalar(fn, doms, extra=()):
    def make(draw, rng):
        return [float(rng.uniform(lo, hi)) for lo, hi in doms] + list(extra), {}
    add(fn, make, argnums=tuple(range(len(doms))), scalar=True, label=f"{fn.__name__}/{len(doms)}")


for _case in MATH:
    scalar(*_case)


def sequences(fn, n_args, lo, hi):
    def make(draw, rng):
        n = draw(st.integers(1, 4))
        return [[float(rng.uniform(lo, hi)) for _ in range(n)] for _ in range(n_args)], {}
    add(fn, make, argnums=tuple(range(n_args)), scalar=True, label=f"{fn.__name__}(list)")


sequences(math.dist, 2, -2, 2)
sequences(math.prod, 1, -2, 2)
sequences(math.fsum, 1, -2, 2)
sequences(builtins.max, 1, -2, 2)
sequences(builtins.sum, 1, -2, 2)
if hasattr(math, "sumprod"):
    sequences(math.sumprod, 2, -2, 2)
if hasattr(math, "fma"):
    scalar(math.fma, [(-2, 2), (-2, 2), (-2, 2)])
