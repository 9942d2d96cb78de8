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


# --- forward mode: ForwardAccumulator around a @differentiate function ------------------------
# It used to run the function op by op on tensors: float()/math values lost their tangents
# (silently) and numpy methods (x.reshape) failed on tensors.  Now the transpiler's forward mode
# gives the tangent, recorded on any tape that records too.

def reshaped(x):
    m = x.reshape(2, 2)
    return float(np.sum(m @ m.T)) * math.cos(float(x[0])) + np.sum(m.sum(axis=0) ** 2)


def two_outputs(x):
    return np.sin(x) * float(x[1]), math.exp(float(x[0])) * x[2:]


FORWARD = FUNCTIONS + [reshaped]
V = np.array([0.2, 0.5, -0.3, 1.0])
U = np.array([-0.4, 0.1, 0.7, 0.3])


def fd_jvp(f, x, v, h=1e-6):
    return (f(x + h * v) - f(x - h * v)) / (2 * h)


@pytest.mark.parametrize("f", FORWARD, ids=[f.__name__ for f in FORWARD])
def test_forward_accumulator(f):
    d = differentiate(f)
    x = tf.constant(X)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(V)) as acc:
        y = d(x)
    assert_close(float(y.numpy()), f(X), 1e-12, 1e-12, what="value")
    assert_close(float(acc.jvp(y).numpy()), fd_jvp(f, X, V), 1e-6, 1e-7, what=f"jvp {f.__name__}")


@pytest.mark.parametrize("f", FORWARD, ids=[f.__name__ for f in FORWARD])
def test_forward_over_reverse(f):
    d = differentiate(f)
    x = tf.constant(X)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(V)) as acc:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = d(x)
        g = tape.gradient(y, x)
    assert_close(acc.jvp(g).numpy(), fd_hvp(f, X, V), 1e-4, 1e-5, what=f"forward over reverse {f.__name__}")


@pytest.mark.parametrize("f", FORWARD, ids=[f.__name__ for f in FORWARD])
def test_reverse_over_forward(f):
    d = differentiate(f)
    x = tf.Variable(X)
    with tf.GradientTape() as tape:
        with tf.autodiff.ForwardAccumulator(x, tf.constant(V)) as acc:
            y = d(x)
        j = acc.jvp(y)
    assert_close(tape.gradient(j, x).numpy(), fd_hvp(f, X, V), 1e-4, 1e-5, what=f"reverse over forward {f.__name__}")


def test_forward_over_forward():
    d = differentiate(via_float)
    x = tf.constant(X)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(U)) as outer:
        with tf.autodiff.ForwardAccumulator(x, tf.constant(V)) as inner:
            y = d(x)
        j = inner.jvp(y)
    assert_close(float(outer.jvp(j).numpy()), U @ fd_hvp(via_float, X, V), 1e-4, 1e-5, what="u^T H v")


def test_forward_mode_of_several_outputs():
    d = differentiate(two_outputs)
    x = tf.constant(X)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(V)) as acc:
        a, b = d(x)
    for k, out in enumerate((a, b)):
        want = fd_jvp(lambda y: two_outputs(y)[k], X, V)
        assert_close(acc.jvp(out).numpy(), want, 1e-6, 1e-7, what=f"output {k}")
