"""Rules for the arithmetic operators: + - * / ** unary minus and @."""

import operator

import numpy as np

from .forms import elementwise, jvp_like
from .registry import define, primitive
from .support import unbroadcast


@elementwise((np.add, operator.add))                # x + y
def d_add(ans, x, y):
    return 1, 1


# the JVP terms of a primitive whose rules come from outside this package
@primitive
def add_terms(a, b, name):
    """``a + b`` of two JVP terms of primitive ``name``, whose rules were registered outside this
    package (the transpiler's forward mode, ``modes/forward.py``).  ``+`` joins two tuples
    instead of adding them; a tuple-valued primitive's terms that its rules return through a
    call are tuples only when the code runs, so they are added here, item by item."""
    if isinstance(a, (tuple, list)) or isinstance(b, (tuple, list)):
        if not (isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)) and len(a) == len(b)):
            raise TypeError(f"the JVP rules of {name} return values of different structures ({_kind(a)} and "
                            f"{_kind(b)}): each must return the tangent of the whole output")
        return tuple(add_terms(x, y, name) for x, y in zip(a, b))
    return a + b


def _kind(v):
    return f"a {type(v).__name__} of {len(v)}" if isinstance(v, (tuple, list)) else f"a {type(v).__name__}"


@elementwise(add_terms)
def d_add_terms(ans, a, b, name):
    return 1, 1


@elementwise((np.subtract, operator.sub))           # x - y
def d_subtract(ans, x, y):
    return 1, -1


# x * y (written as VJPs to keep the operands' order: x * g, not g * x)
def multiply_vjp_x(g, ans, x, y):
    return unbroadcast(g * y, x)


def multiply_vjp_y(g, ans, x, y):
    return unbroadcast(x * g, y)


define((np.multiply, operator.mul), vjp=(multiply_vjp_x, multiply_vjp_y), jvp=jvp_like(multiply_vjp_x, multiply_vjp_y))


@elementwise((np.true_divide, operator.truediv))    # x / y
def d_divide(ans, x, y):
    return 1.0 / y, -ans / y


@elementwise((np.power, operator.pow))              # x ** y  (d/dy is taken as 0 where x == 0, as TensorFlow does)
def d_power(ans, x, y):
    return y * x ** np.where(y, y - 1, 1), ans * np.log(np.where(x == 0, 1, x))


@elementwise((np.negative, operator.neg))           # -x
def d_negative(ans, x):
    return -1


@elementwise((np.positive, operator.pos))           # +x
def d_positive(ans, x):
    return 1


# a @ b, with numpy's rules for 1-D operands and broadcasting batch dimensions
def matmul_vjp_a(g, ans, a, b):
    if np.ndim(b) == 1:
        g = np.expand_dims(g, -1)
        b = np.expand_dims(b, -1)
    if np.ndim(a) == 1:
        g = np.expand_dims(g, -2)
        return unbroadcast(np.matmul(g, np.swapaxes(b, -1, -2))[..., 0, :], a)
    return unbroadcast(np.matmul(g, np.swapaxes(b, -1, -2)), a)


def matmul_vjp_b(g, ans, a, b):
    if np.ndim(b) == 1:
        g = np.expand_dims(g, -1)
    if np.ndim(a) == 1:
        g = np.expand_dims(g, -2)
        a = np.expand_dims(a, 0)
    if np.ndim(b) == 1:
        return unbroadcast(np.matmul(np.swapaxes(a, -1, -2), g)[..., 0], b)
    return unbroadcast(np.matmul(np.swapaxes(a, -1, -2), g), b)


def matmul_jvp_a(t, ans, a, b):
    return np.matmul(t, b)


def matmul_jvp_b(t, ans, a, b):
    return np.matmul(a, t)


define(
    (np.matmul, operator.matmul),
    vjp=(matmul_vjp_a, matmul_vjp_b),
    jvp=(matmul_jvp_a, matmul_jvp_b),
)


# identity (reading a Variable, tf.identity)
@primitive
def identity(x):
    """The value itself; recorded so a read of a variable stays connected to it."""
    return x


@elementwise(identity)
def d_identity(ans, x):
    return 1


# mul_no_nan(x, y): x * y, and 0 wherever y == 0 even if x is inf or NaN (tf.math.multiply_no_nan).
# TF's gradient: mul_no_nan(g, y) for x and mul_no_nan(x, g) for y -- at y == 0 that is x * g, the
# limit of the product's derivative, not 0.
@primitive
def mul_no_nan(x, y):
    """``x * y`` with 0 where ``y == 0``."""
    return np.where(np.equal(y, 0), np.zeros_like(np.multiply(x, y)), np.multiply(x, y))


def mul_no_nan_vjp_x(g, ans, x, y):
    return unbroadcast(mul_no_nan(g, y), x)


def mul_no_nan_vjp_y(g, ans, x, y):
    return unbroadcast(mul_no_nan(x, g), y)


define(mul_no_nan, vjp=(mul_no_nan_vjp_x, mul_no_nan_vjp_y), jvp=jvp_like(mul_no_nan_vjp_x, mul_no_nan_vjp_y))
