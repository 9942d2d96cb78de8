"""TF-style calls inside a @differentiate body: tf.* ops, tf.stop_gradient, tf.custom_gradient.

The transpiler writes each aliased tf op as its numpy primitive (same rule as the tape), so
every gradient here is compared with central finite differences and with the same function
recorded op by op on the runtime tape; higher derivatives go through nested tapes.
"""

import numpy as np
import pytest

import runtime as tf
from tests.transpiler.checks import check
from transpiler import TranspileError, differentiate

X = np.array([0.3, -1.2, 0.8, 2.0])
M = np.linspace(-1.0, 1.0, 6).reshape(2, 3)
W = np.linspace(0.5, -0.7, 12).reshape(3, 4)


def close(a, b, rtol=1e-7, atol=1e-9):
    a = a.numpy() if hasattr(a, "numpy") else a
    b = b.numpy() if hasattr(b, "numpy") else b
    np.testing.assert_allclose(a, b, rtol=rtol, atol=atol)


# --- tf ops written as numpy primitives ----------------------------------------------------

def unary_ops(x):
    a = tf.exp(tf.sin(x)) + tf.math.log1p(tf.square(x)) + tf.math.expm1(x * 0.1)
    b = tf.tanh(x) * tf.sqrt(tf.abs(x) + 1.0) - tf.math.cos(x) / tf.math.cosh(x)
    c = tf.sigmoid(x) + tf.math.softplus(x) + tf.nn.relu(x) + tf.math.erf(x) + tf.math.atan(x)
    return tf.reduce_sum(a * b + c + tf.negative(tf.math.reciprocal(x * x + 1.0)))


def binary_ops(x, y):
    s = tf.add(x, y) * tf.multiply(x, 2.0) - tf.subtract(y, x)
    t = tf.divide(s, tf.pow(y * y + 1.0, 0.5)) + tf.maximum(x, y) + tf.minimum(x, y)
    return tf.math.reduce_sum(t + tf.math.atan2(x, y + 3.0))


def reductions(m):
    a = tf.reduce_sum(m, axis=0) * tf.reduce_mean(m * m, axis=0)
    b = tf.reduce_max(m, axis=1, keepdims=True) * tf.reduce_min(m, 1, True)
    c = tf.reduce_prod(m + 2.0, axis=-1) + tf.math.reduce_logsumexp(m, axis=0, keepdims=False)[:2]
    return tf.reduce_sum(a) + tf.reduce_sum(b * m) + tf.reduce_sum(c)


def shapes(m, w):
    h = tf.matmul(m, w, transpose_a=False)
    h = tf.transpose(tf.reshape(h, (4, 2)))
    h = tf.concat([h, tf.expand_dims(tf.squeeze(tf.stack([m[:, 0]], axis=1), axis=1), 1)], axis=1)
    return tf.reduce_sum(tf.clip_by_value(h, -0.4, 0.6) * h + tf.identity(h))


@pytest.mark.parametrize("fn, args, wrt", [
    (unary_ops, (X,), 0),
    (binary_ops, (X, X[::-1] * 0.7), (0, 1)),
    (reductions, (M,), 0),
    (shapes, (M, W), (0, 1)),
], ids=["unary", "binary", "reductions", "shapes"])
def test_tf_ops_match_finite_differences_and_the_tape(fn, args, wrt):
    d = check(fn, *args, wrt=wrt)
    # the comments quote the user's lines; the code itself is numpy
    code = [ln for ln in d.source.splitlines() if not ln.strip().startswith("#")]
    assert not any("tf." in ln for ln in code), d.source


@pytest.mark.parametrize("fn, args", [(unary_ops, (X,)), (reductions, (M,)), (shapes, (M, W))],
                         ids=["unary", "reductions", "shapes"])
def test_tf_ops_inside_a_tape_are_one_op_with_exact_second_derivatives(fn, args):
    d = differentiate(fn, wrt=tuple(range(len(args))))

    def second(f):
        xs = [tf.Variable(a) for a in args]
        with tf.GradientTape() as outer:
            with tf.GradientTape() as inner:
                y = f(*xs)
            n = len(inner._nodes)
            gs = inner.gradient(y, xs)
            s = tf.add_n([tf.reduce_sum(g * tf.sin(v)) for g, v in zip(gs, xs)])
        return y, gs, outer.gradient(s, xs), n

    y1, g1, h1, nodes = second(d)
    y2, g2, h2, _ = second(fn)
    assert nodes == 1
    close(y1, y2)
    for a, b in zip(g1 + h1, g2 + h2):
        close(a, b)


def test_tf_calls_rejected_with_a_hint():
    with pytest.raises(TranspileError) as e:
        @differentiate
        def drops(x):
            return tf.reduce_sum(tf.nn.dropout(x, 0.5))
    msg = str(e.value)
    assert "tf.nn.dropout" in msg and "test_tf_calls.py" in msg and "mask" in msg
    assert "return tf.reduce_sum(tf.nn.dropout(x, 0.5))" in msg

    with pytest.raises(TranspileError, match="a_is_sparse"):
        @differentiate
        def sparse(x):
            return tf.reduce_sum(tf.matmul(x, x, a_is_sparse=True))

    @differentiate
    def named(x):   # name= and explicit defaults are fine
        return tf.reduce_sum(tf.transpose(x, conjugate=False), axis=None, name="total")
    close(named.grad(M), np.ones_like(M))


# --- tf.stop_gradient ------------------------------------------------------------------------

def stopped(x, w):
    s = tf.stop_gradient(x * w)
    return np.sum(s * x * w + np.sin(tf.stop_gradient(w)) * x)


def test_stop_gradient_is_a_constant_in_generated_code():
    w = X[::-1] * 0.5
    d = differentiate(stopped, wrt=(0, 1))
    gx, gw = d.grad(X, w)
    s = X * w
    close(gx, s * w + np.sin(w))
    close(gw, s * X)
    assert isinstance(gx, np.ndarray)   # numpy in, numpy out: no Tensor leaks into the code
    fwd = differentiate(stopped, wrt=(0, 1), mode="forward")
    _, tangent = fwd.jvp((X, w), (np.ones_like(X), np.zeros_like(w)))
    close(tangent, np.sum(s * w + np.sin(w)))


def test_stop_gradient_inside_matches_the_tape_to_second_order():
    d = differentiate(stopped, wrt=(0, 1))

    def run(f):
        x, w = tf.Variable(X), tf.Variable(X[::-1] * 0.5)
        with tf.GradientTape(persistent=True) as outer:
            with tf.GradientTape() as inner:
                y = f(x, w)
            n = len(inner._nodes)
            gx, gw = inner.gradient(y, [x, w])
            s = tf.reduce_sum(gx * gx) + tf.reduce_sum(gw * x)
        return y, gx, gw, outer.gradient(s, [x, w]), n

    y1, gx1, gw1, h1, n = run(d)
    y2, gx2, gw2, h2, _ = run(stopped)
    assert n == 1
    for a, b in zip([y1, gx1, gw1] + h1, [y2, gx2, gw2] + h2):
        close(a, b)


# --- tf.custom_gradient functions called from generated code --------------------------------

@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)

    def grad_fn(upstream):
        return upstream * (1 - 1 / (1 + e))
    return tf.math.log(1 + e), grad_fn


@tf.custom_gradient
def scaled_product(x, y):
    """x * y whose gradient for x is doubled and for y is None (a deliberate custom rule)."""
    return x * y, lambda up: (2.0 * up * y, None)


def softplus_sum(x):
    return np.sum(log1pexp(x * 2.0) * x)


def uses_scaled(x, y):
    return np.sum(np.sin(scaled_product(x, y)))


def test_custom_gradient_is_the_vjp_of_generated_code():
    d = check(softplus_sum, X)   # a true gradient: FD and the tape agree
    assert "log1pexp_vjp_0(" in d.source
    gx, gy = differentiate(uses_scaled, wrt=(0, 1)).grad(X, X + 1.0)
    c = np.cos(X * (X + 1.0))
    close(gx, 2.0 * c * (X + 1.0))
    close(gy, np.zeros_like(X))


@pytest.mark.parametrize("fn", [softplus_sum, uses_scaled])
def test_custom_gradient_inside_a_tape_matches_op_by_op_to_second_order(fn):
    nargs = 1 if fn is softplus_sum else 2
    d = differentiate(fn, wrt=tuple(range(nargs)))

    def run(f):
        xs = [tf.Variable(X + k) for k in range(nargs)]
        with tf.GradientTape() as outer:
            with tf.GradientTape() as inner:
                y = f(*xs)
            n = len(inner._nodes)
            gs = inner.gradient(y, xs, unconnected_gradients=tf.UnconnectedGradients.ZERO)
            s = tf.add_n([tf.reduce_sum(g * g) for g in gs])
        return [y] + gs + outer.gradient(s, xs, unconnected_gradients=tf.UnconnectedGradients.ZERO), n

    got, n = run(d)
    want, _ = run(fn)
    assert n == 1
    for a, b in zip(got, want):
        close(a, b)


def test_custom_gradient_wrapping_a_function_that_calls_a_differentiable():
    @differentiate
    def energy(x):
        return np.sum(np.cos(x) * x)

    @tf.custom_gradient
    def damped_energy(x):
        y = energy(x)    # one recorded transpiled op inside the custom-gradient function

        def grad_fn(up):
            return up * 0.5 * (tf.cos(x) - x * tf.sin(x))
        return y, grad_fn

    x = tf.constant(X)
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = damped_energy(x)
        g = t1.gradient(y, x)
    close(y, np.sum(np.cos(X) * X))
    close(g, 0.5 * (np.cos(X) - X * np.sin(X)))
    close(t2.gradient(g, x), 0.5 * (-2 * np.sin(X) - X * np.cos(X)))


@tf.custom_gradient
def clip_grad(x):
    return x, lambda up: tf.clip_by_value(up, -1.0, 1.0)


def test_readme_example():
    @differentiate
    def loss(x):
        return tf.reduce_sum(clip_grad(x) * tf.stop_gradient(x) ** 2)

    g = loss.grad(np.array([0.5, 2.0]))
    assert type(g) is np.ndarray
    close(g, [0.25, 1.0])


@pytest.mark.parametrize("fn, args", [
    (unary_ops, (X,)), (binary_ops, (X, X[::-1] * 0.7)), (reductions, (M,)), (shapes, (M, W)),
    (softplus_sum, (X,)), (uses_scaled, (X, X + 1.0)),
], ids=["unary", "binary", "reductions", "shapes", "custom", "custom-2"])
def test_forward_mode_matches_finite_differences(fn, args):
    """Tangent code: tf ops use the primitives' JVPs; a custom_gradient function follows its
    own ops (as the runtime's ForwardAccumulator does), not its grad_fn."""
    from tests.fd import numeric_jvp
    rng = np.random.default_rng(1)
    tangents = tuple(rng.normal(size=np.shape(a)) for a in args)
    d = differentiate(fn, wrt=tuple(range(len(args))), mode="forward")
    value, tangent = d.jvp(args, tangents)
    close(value, np.asarray(fn(*args)))
    close(tangent, numeric_jvp(fn, args, tangents), rtol=1e-6, atol=1e-7)


def test_transpiled_higher_derivatives_keep_stop_gradient_and_reject_custom_rules():
    from transpiler import grad
    from transpiler.higher import hvp

    def cubic_stopped(x):
        return np.sum(tf.stop_gradient(x) * x * x)

    x, v = np.array([1.0, 2.0]), np.array([1.0, 0.5])
    close(grad(grad(cubic_stopped))(x), 2.0 * x)          # d/dx sum(2 sg(x) x) = 2 sg(x)
    close(hvp(cubic_stopped, x, v), 2.0 * x * v)

    with pytest.raises(TranspileError, match="custom_gradient function log1pexp.*nested GradientTapes"):
        grad(grad(softplus_sum))(X)
