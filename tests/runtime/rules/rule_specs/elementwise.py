"""Specs for elementwise rules: unary and broadcasting binary functions, selections, activations."""

import builtins
import operator

import numpy as np

from runtime.rules.activations import logsumexp, relu, sigmoid, softplus
from runtime.rules.arithmetic import identity
from runtime.rules.nn import relu6
from runtime.rules.special import digamma, erf, erfc, lgamma, polygamma

from . import add, broadcast_shapes, shape, spec, values

# fn, domain (lo, hi, signed)
UNARY = [
    (np.exp, (-2, 2, False)), (np.exp2, (-2, 2, False)), (np.expm1, (-2, 2, False)),
    (np.log, (0.2, 3, False)), (np.log2, (0.2, 3, False)), (np.log10, (0.2, 3, False)),
    (np.log1p, (-0.8, 3, False)), (np.sqrt, (0.2, 3, False)), (np.cbrt, (0.2, 3, True)),
    (np.square, (-2, 2, False)), (np.reciprocal, (0.3, 3, True)), (np.abs, (0.05, 2, True)),
    (np.fabs, (0.05, 2, True)), (np.sign, (0.05, 2, True)), (np.negative, (-2, 2, False)),
    (np.positive, (-2, 2, False)),
    (np.sin, (-3, 3, False)), (np.cos, (-3, 3, False)), (np.tan, (-1.2, 1.2, False)),
    (np.arcsin, (-0.9, 0.9, False)), (np.arccos, (-0.9, 0.9, False)), (np.arctan, (-2, 2, False)),
    (np.sinh, (-2, 2, False)), (np.cosh, (-2, 2, False)), (np.tanh, (-2, 2, False)),
    (np.arcsinh, (-2, 2, False)), (np.arccosh, (1.2, 3, False)), (np.arctanh, (-0.9, 0.9, False)),
    (np.deg2rad, (-3, 3, False)), (np.rad2deg, (-3, 3, False)), (np.sinc, (0.05, 2, True)),
    (np.nan_to_num, (-2, 2, False)), (np.real, (-2, 2, False)), (np.imag, (-2, 2, False)),
    (np.conjugate, (-2, 2, False)), (np.angle, (0.1, 2, True)),
    (sigmoid, (-3, 3, False)), (relu, (0.05, 2, True)), (relu6, (0.05, 7, True)),
    (softplus, (-3, 3, False)), (erf, (-2, 2, False)), (erfc, (-2, 2, False)),
    (digamma, (0.5, 4, False)), (lgamma, (0.3, 4, False)), (identity, (-2, 2, False)), (np.copy, (-2, 2, False)),
]


def unary(fn, dom, **kw):
    def make(draw, rng):
        return [values(rng, shape(draw), *dom)], {}
    add(fn, make, **kw)


for _fn, _dom in UNARY:
    unary(_fn, _dom)


@spec(polygamma, argnums=(1,))
def _polygamma(draw, rng):
    return [draw_int(draw, 0, 2), values(rng, shape(draw), 0.5, 4)], {}


def draw_int(draw, lo, hi):
    from hypothesis import strategies as st
    return draw(st.integers(lo, hi))


# fn, domain of x, domain of y
BINARY = [
    (np.add, (-2, 2, False), (-2, 2, False)), (np.subtract, (-2, 2, False), (-2, 2, False)),
    (np.multiply, (-2, 2, False), (-2, 2, False)), (np.true_divide, (-2, 2, False), (0.3, 2, True)),
    (np.power, (0.3, 2, False), (-2, 2, False)), (np.float_power, (0.3, 2, False), (-2, 2, False)),
    (np.logaddexp, (-2, 2, False), (-2, 2, False)), (np.logaddexp2, (-2, 2, False), (-2, 2, False)),
    (np.arctan2, (0.3, 2, True), (0.3, 2, True)), (np.hypot, (0.3, 2, True), (0.3, 2, True)),
    (np.maximum, (-2, 2, False), (-2, 2, False)), (np.minimum, (-2, 2, False), (-2, 2, False)),
    (np.fmax, (-2, 2, False), (-2, 2, False)), (np.fmin, (-2, 2, False), (-2, 2, False)),
    (np.copysign, (0.1, 2, True), (0.1, 2, True)),
    (np.mod, (-3, 3, False), (0.5, 2, True)), (np.fmod, (-3, 3, False), (0.5, 2, True)),
]


def binary(fn, dx, dy):
    def make(draw, rng):
        sx, sy = broadcast_shapes(draw)
        return [values(rng, sx, *dx), values(rng, sy, *dy)], {}
    add(fn, make, argnums=(0, 1))


for _fn, _dx, _dy in BINARY:
    binary(_fn, _dx, _dy)


@spec(np.where, argnums=(1, 2))
def _where(draw, rng):
    sc, sx, sy = broadcast_shapes(draw, 3)
    return [rng.uniform(size=sc) > 0.5, values(rng, sx), values(rng, sy)], {}


@spec(np.clip, argnums=(0, 1, 2))
def _clip(draw, rng):
    sa, lo, hi = broadcast_shapes(draw, 3)
    return [values(rng, sa, -3, 3), values(rng, lo, -2, -0.5), values(rng, hi, 0.5, 2)], {}


@spec(np.select, argnums=(1, 2), second=False, why="np.select does not dispatch on default=")
def _select(draw, rng):
    s1, s2, s3 = broadcast_shapes(draw, 3)
    conds = [rng.uniform(size=s1) > 0.5, rng.uniform(size=s2) > 0.5]
    return [conds, [values(rng, s1), values(rng, s2)], values(rng, s3)], {}


@spec(logsumexp)
def _logsumexp(draw, rng):
    from . import axis_of
    shp = shape(draw)
    return [values(rng, shp)], {"axis": axis_of(draw, len(shp), tuples=True), "keepdims": draw_bool(draw)}


def draw_bool(draw):
    from hypothesis import strategies as st
    return draw(st.booleans())


# builtins / operators that share a numpy rule object are covered by that rule's spec; these
# aliases are exercised on Python floats too
@spec(builtins.abs, scalar=True, label="builtins.abs")
def _babs(draw, rng):
    return [float(values(rng, (), 0.1, 2, True))], {}


@spec(operator.mul, argnums=(0, 1), label="operator.mul")
def _mul(draw, rng):
    return [values(rng, shape(draw)), values(rng, ())], {}


@spec(np.ldexp)
def _ldexp(draw, rng):
    sx, si = broadcast_shapes(draw)
    return [values(rng, sx), rng.integers(-3, 4, size=si)], {}


for _fn in (np.asanyarray, np.ascontiguousarray, np.asfortranarray):
    unary(_fn, (-2, 2, False), second=False, why="numpy returns a plain ndarray: the tape refuses tensors")
unary(np.real_if_close, (-2, 2, False))


from runtime.rules.special import i1  # noqa: E402

for _fn, _dom in ((np.emath.sqrt, (0.2, 3, False)), (np.emath.log, (0.2, 3, False)), (np.emath.log2, (0.2, 3, False)),
                  (np.emath.log10, (0.2, 3, False)), (np.emath.arcsin, (-0.9, 0.9, False)),
                  (np.emath.arccos, (-0.9, 0.9, False)), (np.emath.arctanh, (-0.9, 0.9, False)),
                  (np.i0, (-3, 3, False)), (i1, (-3, 3, False))):
    unary(_fn, _dom)
binary(np.emath.logn, (1.5, 3, False), (0.2, 3, False))
binary(np.emath.power, (0.3, 2, False), (-2, 2, False))


@spec(np.heaviside, argnums=(1,))
def _heaviside(draw, rng):
    s1, s2 = broadcast_shapes(draw)
    x1 = values(rng, s1, 0.1, 2, signed=True)
    x1[rng.uniform(size=s1) > 0.6] = 0.0          # x2 is the value exactly there
    return [x1, values(rng, s2)], {}


@spec(np.heaviside, argnums=(0,), label="heaviside(x1)")
def _heaviside_x1(draw, rng):
    s1, s2 = broadcast_shapes(draw)
    return [values(rng, s1, 0.1, 2, signed=True), values(rng, s2)], {}


unary(np.modf, (0.1, 3, True))
unary(np.frexp, (0.1, 3, True), second=False,   # its exponent is an int tensor: w * e is a dtype error
      why="second order: tests/runtime/rules/test_piecewise_outputs.py")
binary(np.divmod, (-3, 3, False), (0.5, 2, True))


from runtime.rules.arithmetic import mul_no_nan  # noqa: E402


@spec(mul_no_nan, argnums=(0, 1))
def _mul_no_nan(draw, rng):
    """Away from y == 0 (the case TF's gradient defines by convention: tests/runtime/ops/test_tf_ops_more.py)."""
    sx, sy = broadcast_shapes(draw)
    return [values(rng, sx), values(rng, sy, 0.2, 2, signed=True)], {}
