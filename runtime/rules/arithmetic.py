"""Rules for the arithmetic operators: + - * / ** unary minus and @."""

import operator

import numpy as np

from .registry import define, primitive
from .support import broadcast_like, unbroadcast


# x + y
def add_vjp_x(g, ans, x, y):
    return unbroadcast(g, x)


def add_vjp_y(g, ans, x, y):
    return unbroadcast(g, y)


def add_jvp_x(t, ans, x, y):
    return broadcast_like(t, ans)


def add_jvp_y(t, ans, x, y):
    return broadcast_like(t, ans)


define((np.add, operator.add), vjp=(add_vjp_x, add_vjp_y), jvp=(add_jvp_x, add_jvp_y))


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


def add_terms_vjp_a(g, ans, a, b, name):
    return unbroadcast(g, a)


def add_terms_vjp_b(g, ans, a, b, name):
    return unbroadcast(g, b)


def add_terms_jvp_a(t, ans, a, b, name):
    return broadcast_like(t, ans)


def add_terms_jvp_b(t, ans, a, b, name):
    return broadcast_like(t, ans)


define(add_terms, vjp=(add_terms_vjp_a, add_terms_vjp_b), jvp=(add_terms_jvp_a, add_terms_jvp_b))


# x - y
def subtract_vjp_y(g, ans, x, y):
    return unbroadcast(-g, y)


def subtract_jvp_y(t, ans, x, y):
    return broadcast_like(-t, ans)


define((np.subtract, operator.sub), vjp=(add_vjp_x, subtract_vjp_y), jvp=(add_jvp_x, subtract_jvp_y))


# x * y
def multiply_vjp_x(g, ans, x, y):
    return unbroadcast(g * y, x)


def multiply_vjp_y(g, ans, x, y):
    return unbroadcast(x * g, y)


def multiply_jvp_x(t, ans, x, y):
    return broadcast_like(t * y, ans)


def multiply_jvp_y(t, ans, x, y):
    return broadcast_like(x * t, ans)


define(
    (np.multiply, operator.mul),
    vjp=(multiply_vjp_x, multiply_vjp_y),
    jvp=(multiply_jvp_x, multiply_jvp_y),
)


# x / y
def divide_vjp_x(g, ans, x, y):
    return unbroadcast(g / y, x)


def divide_vjp_y(g, ans, x, y):
    return unbroadcast(-g * ans / y, y)


def divide_jvp_x(t, ans, x, y):
    return broadcast_like(t / y, ans)


def divide_jvp_y(t, ans, x, y):
    return broadcast_like(-t * ans / y, ans)


define(
    (np.true_divide, operator.truediv),
    vjp=(divide_vjp_x, divide_vjp_y),
    jvp=(divide_jvp_x, divide_jvp_y),
)


# x ** y  (d/dy is taken as 0 where x == 0, as TensorFlow does)
def power_vjp_x(g, ans, x, y):
    return unbroadcast(g * y * x ** np.where(y, y - 1, 1), x)


def power_vjp_y(g, ans, x, y):
    return unbroadcast(g * ans * np.log(np.where(x == 0, 1, x)), y)


def power_jvp_x(t, ans, x, y):
    return broadcast_like(t * y * x ** np.where(y, y - 1, 1), ans)


def power_jvp_y(t, ans, x, y):
    return broadcast_like(t * ans * np.log(np.where(x == 0, 1, x)), ans)


define(
    (np.power, operator.pow),
    vjp=(power_vjp_x, power_vjp_y),
    jvp=(power_jvp_x, power_jvp_y),
)


# -x, +x
def negative_vjp(g, ans, x):
    return -g


def negative_jvp(t, ans, x):
    return -t


define((np.negative, operator.neg), vjp=(negative_vjp,), jvp=(negative_jvp,))


def positive_vjp(g, ans, x):
    return g


def positive_jvp(t, ans, x):
    return t


define((np.positive, operator.pos), vjp=(positive_vjp,), jvp=(positive_jvp,))


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


def identity_vjp(g, ans, x):
    return g


def identity_jvp(t, ans, x):
    return t


define(identity, vjp=(identity_vjp,), jvp=(identity_jvp,))


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


def mul_no_nan_jvp_x(t, ans, x, y):
    return broadcast_like(mul_no_nan(t, y), ans)


def mul_no_nan_jvp_y(t, ans, x, y):
    return broadcast_like(mul_no_nan(x, t), ans)


define(mul_no_nan, vjp=(mul_no_nan_vjp_x, mul_no_nan_vjp_y), jvp=(mul_no_nan_jvp_x, mul_no_nan_jvp_y))
