"""Nested tapes over a ``@differentiate`` function: exact second derivatives for everyday Python.

The outer tape used to record the generated gradient op by op, running its code on tensors;
every value it computed with Python floats (``float(x)``, ``math.sin``) or kept in a Python
container was cut off, so second derivatives came out zero (or the run crashed).  The gradient is
now recorded as one op whose VJP the transpiler generates.  Reference: four-point finite
differences of the plain function, which shares no code with either half.
"""

import math

import numpy as np
import pytest

import runtime as tf
from tests.fd import assert_close
from transpiler import differentiate


def via_float(x):
    a = float(x[0])
    return math.exp(a) * math.sin(a) + x[1] * float(x[2]) ** 2


def math_loop(x):
    s = 0.0
    for v in x:
        s += math.sin(float(v)) * math.exp(float(v) / 3.0)
    return s


def keyed(x):
    d = {f"v{len(x)}": x, "w": x[:2] * x[2]}
    return np.sum(d["v4"] ** 2) + np.sum(d["w"] ** 3)


def listed(x):
    parts = [v * v for v in x]
    parts.append(parts[0] * x[1])
    last = parts.pop()
    return sum(parts) + last * x[3]


def splat(x):
    def g(a, b=1.0):
        return a * b * a
    kw = {"b": x[1]}
    return g(x[0], **kw) + g(x[2], b=x[3])


def updated(x):
    p = {"a": x[0]}
    p.update({"b": x[1] * x[2]})
    p["a"] += x[3] ** 2
    return p["a"] * p["b"]


FUNCTIONS = [via_float, math_loop, keyed, listed, splat, updated]
X = np.array([0.3, -0.7, 1.1, 0.45])


def fd_hvp(f, x, v, h=1e-4):
    rows = []
    for u in np.eye(x.size):
        rows.append((f(x + h * u + h * v) - f(x + h * u - h * v) - f(x - h * u + h * v) + f(x - h * u - h * v))
                    / (4 * h * h))
    return np.array(rows)


@pytest.mark.parametrize("f", FUNCTIONS, ids=[f.__name__ for f in FUNCTIONS])
def test_nested_tapes_give_the_hessian_vector_product(f):
    d = differentiate(f)
    v = np.array([0.2, 0.5, -0.3, 1.0])
    x = tf.Variable(X)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = d(x)
        g = inner.gradient(y, x)
        gv = tf.reduce_sum(g * v)
    assert_close(outer.gradient(gv, x).numpy(), fd_hvp(f, X, v), 1e-4, 1e-5, what=f.__name__)


def test_third_order_through_three_tapes():
    d = differentiate(via_float)
    x = tf.Variable(X)
    with tf.GradientTape() as t3:
        with tf.GradientTape() as t2:
            with tf.GradientTape() as t1:
                y = d(x)
            g = t1.gradient(y, x)[0]
        h = t2.gradient(g, x)[0]
    third = t3.gradient(h, x).numpy()[0]
    a = X[0]
    # d^3/da^3 (e^a sin a) = 2 e^a (cos a - sin a)
    assert_close(third, 2 * math.exp(a) * (math.cos(a) - math.sin(a)), 1e-10, 1e-10, what="third derivative")
