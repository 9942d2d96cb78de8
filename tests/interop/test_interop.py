"""A @differentiate'd function inside GradientTape blocks: one recorded op, exact derivatives.

Every check compares the recorded generated adjoint with the same computation written with
tape ops (or run op by op on tensors), and with analytic derivatives where they are short.
"""

import numpy as np
import pytest

import runtime as tf
from transpiler import differentiate
from transpiler.bridge import tape_call


def close(a, b, rtol=1e-5, atol=1e-6):
    a = a.numpy() if hasattr(a, "numpy") else a
    b = b.numpy() if hasattr(b, "numpy") else b
    np.testing.assert_allclose(a, b, rtol=rtol, atol=atol)


@differentiate(wrt=(0, 1))
def layer(x, w):
    h = np.tanh(x @ w)
    return np.sum(h * h, axis=-1)


def layer_tape(x, w):
    h = tf.tanh(tf.matmul(x, w))
    return tf.reduce_sum(h * h, axis=-1)


X = np.linspace(-1.0, 1.0, 6).reshape(2, 3)
W = np.linspace(0.5, -0.7, 12).reshape(3, 4)


# --- one recorded op, first-order gradients ------------------------------------------------

def test_recorded_as_one_op_and_matches_tape():
    x, w = tf.constant(X), tf.Variable(W)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = layer(x, w)
    assert len(tape._nodes) == 1
    assert tape._nodes[0][0].name.endswith("(transpiled)")
    gx, gw = tape.gradient(y, [x, w])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y2 = layer_tape(x, w)
    ex, ew = tape.gradient(y2, [x, w])
    close(y, y2)
    close(gx, ex)
    close(gw, ew)
    assert isinstance(gw, tf.Tensor)


def test_float32_variables_and_python_constants():
    v = tf.Variable(2.0)

    @differentiate
    def f(x, c):
        return x ** 3 * c + 1.0

    with tf.GradientTape() as tape:
        y = f(v, 0.5)
    g = tape.gradient(y, v)
    assert g.dtype == tf.float32 and y.dtype == tf.float32
    close(g, 1.5 * 4.0)


def test_composes_with_tape_ops_around_it():
    x, w = tf.constant(X), tf.Variable(W)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_mean(tf.exp(-layer(x * 2.0, w)))
    g = tape.gradient(y, [x, w])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y2 = tf.reduce_mean(tf.exp(-layer_tape(x * 2.0, w)))
    e = tape.gradient(y2, [x, w])
    close(g[0], e[0])
    close(g[1], e[1])


# --- higher order --------------------------------------------------------------------------

@differentiate
def cubic_sin(x):
    return np.sin(x) * x ** 3


def d_cubic_sin(x, order):
    s, c = np.sin(x), np.cos(x)
    return [np.sin(x) * x ** 3,
            c * x ** 3 + 3 * x ** 2 * s,
            -s * x ** 3 + 6 * x ** 2 * c + 6 * x * s,
            -c * x ** 3 - 9 * x ** 2 * s + 18 * x * c + 6 * s][order]


@pytest.mark.parametrize("fn", [cubic_sin, lambda x: tf.sin(x) * x ** 3])
def test_second_and_third_derivatives(fn):
    xv = np.array([0.3, -1.2, 2.0])
    x = tf.constant(xv)
    with tf.GradientTape() as t3:
        t3.watch(x)
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                y = fn(x)
            d1 = t1.gradient(y, x)
        d2 = t2.gradient(d1, x)
    d3 = t3.gradient(d2, x)
    close(d1, d_cubic_sin(xv, 1))
    close(d2, d_cubic_sin(xv, 2))
    close(d3, d_cubic_sin(xv, 3))


def test_hessian_mixed_code_matches_pure_tape():
    x, w = tf.Variable(X), tf.Variable(W)
    out = []
    for fn in (layer, layer_tape):
        with tf.GradientTape(persistent=True) as outer:
            with tf.GradientTape() as inner:
                y = tf.reduce_sum(fn(x, w) * 0.5)
            gx, gw = inner.gradient(y, [x, w])
            s = tf.reduce_sum(gx * gx) + tf.reduce_sum(tf.sin(gw))
        out.append(outer.gradient(s, [x, w]) + [outer.jacobian(gx, w)])
    for a, b in zip(*out):
        close(a, b)


def test_two_differentiables_composed_by_tape_ops():
    @differentiate
    def inner(x):
        return np.exp(np.sin(x))

    @differentiate(wrt=(0, 1))
    def times(a, b):
        return a * b

    def outer(x):
        return times(inner(x), tf.identity(x))

    x = tf.constant(0.7, dtype=tf.float64)
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = outer(x)
        g = t1.gradient(y, x)
    h = t2.gradient(g, x)
    e = np.exp(np.sin(0.7))
    close(g, e + 0.7 * e * np.cos(0.7))
    # d/dx [e + x e cos x] = e cos x + e cos x + x e cos^2 x - x e sin x
    close(h, 2 * e * np.cos(0.7) + 0.7 * e * np.cos(0.7) ** 2 - 0.7 * e * np.sin(0.7))


# --- variables read inside -----------------------------------------------------------------

W_GLOBAL = tf.Variable(np.array([1.0, -2.0, 0.5]))


@differentiate
def reads_global(x):
    return np.sum(np.sin(x * W_GLOBAL))


def test_variables_read_from_closure_global_and_self():
    v = tf.Variable(np.array([0.5, 0.25, -1.0]))

    @differentiate
    def reads_closure(x):
        return np.sum(np.exp(x * v))

    class Model:
        def __init__(self):
            self.w = tf.Variable(np.array([[1.0], [2.0], [-1.0]]))

        @differentiate(wrt=1)
        def __call__(self, x):
            return np.sum(np.tanh(x @ self.w))

    m = Model()
    x = tf.constant(np.array([0.1, 0.2, 0.3]))
    with tf.GradientTape(persistent=True) as tape:
        a = reads_closure(x)
        b = reads_global(x)
        c = m(x)
    close(tape.gradient(a, v), x.numpy() * np.exp(x.numpy() * v.numpy()))
    close(tape.gradient(b, W_GLOBAL), x.numpy() * np.cos(x.numpy() * W_GLOBAL.numpy()))
    t = np.tanh(x.numpy() @ m.w.numpy())
    close(tape.gradient(c, m.w), x.numpy()[:, None] * (1 - t ** 2))
    assert {id(v) for v in tape.watched_variables()} >= {id(v), id(W_GLOBAL), id(m.w)}


def test_variables_passed_to_a_method_are_one_op():
    class Dense:
        def __init__(self):
            self.kernel = tf.Variable(W)

        @differentiate(wrt=(1, 2))
        def forward(self, x, kernel):
            return np.tanh(x @ kernel)

        def __call__(self, x):
            return self.forward(x, self.kernel)

    d = Dense()
    x = tf.constant(X)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(d(x))
    assert len(tape._nodes) == 2  # the transpiled op and the reduce_sum
    g = tape.gradient(y, d.kernel)
    close(g, X.T @ (1 - np.tanh(X @ W) ** 2))


# --- tape features -------------------------------------------------------------------------

def test_jacobian_and_batch_jacobian():
    x, w = tf.Variable(X), tf.Variable(W)

    @differentiate(wrt=(0, 1))
    def act(x, w):
        return np.tanh(x @ w)

    for fn in (act, lambda x, w: tf.tanh(x @ w)):
        with tf.GradientTape(persistent=True) as tape:
            y = fn(x, w)
        jw = tape.jacobian(y, w)
        bj = tape.batch_jacobian(y, x)
        if fn is act:
            first = (jw, bj)
    close(first[0], jw)
    close(first[1], bj)


def test_persistent_output_gradients_and_unconnected():
    @differentiate(wrt=(0, 1))
    def only_x(x, y):
        return x * 3.0

    x, y = tf.constant(2.0), tf.constant(5.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, y])
        z = only_x(x, y)
    assert tape.gradient(z, y) is None
    close(tape.gradient(z, y, unconnected_gradients=tf.UnconnectedGradients.ZERO), 0.0)
    close(tape.gradient(z, x, output_gradients=tf.constant(4.0)), 12.0)
    close(tape.gradient(z, x), 3.0)


def test_stop_recording_and_stop_gradient_around():
    x = tf.Variable(np.array([0.5, 1.5]))

    @differentiate
    def sq(x):
        return np.sum(x * x)

    with tf.GradientTape() as tape:
        with tape.stop_recording():
            a = sq(x)
        b = sq(tf.stop_gradient(x)) + sq(x)
        total = a + b + sq(tf.stop_gradient(x * 2.0))
    assert isinstance(a, tf.Tensor)
    close(total, 4 * np.sum(x.numpy() ** 2) + 2 * 0 + 3 * np.sum(x.numpy() ** 2))
    close(tape.gradient(total, x), 2 * x.numpy())


def test_stop_gradient_inside():
    x = tf.Variable(np.array([0.5, 1.5]))

    @differentiate
    def inner_stop(x):
        return np.sum(tf.stop_gradient(x) * x)

    with tf.GradientTape() as tape:
        c = inner_stop(x)
    close(tape.gradient(c, x), x.numpy())


def test_outside_a_tape():
    r = cubic_sin(tf.constant([1.0, 2.0]))
    assert isinstance(r, tf.Tensor) and r.dtype == tf.float32
    close(r, np.sin([1.0, 2.0]) * np.array([1.0, 2.0]) ** 3, rtol=1e-6)
    r = cubic_sin(np.array([1.0, 2.0]))
    assert type(r) is np.ndarray
    r = cubic_sin(1.5)
    assert isinstance(r, float)


def test_multiple_outputs():
    @differentiate(wrt=(0, 1))
    def two(x, y):
        a = np.sin(x) * y
        return a, np.sum(a * x)

    def two_tape(x, y):
        a = tf.sin(x) * y
        return a, tf.reduce_sum(a * x)

    x, y = tf.Variable(np.array([0.2, 0.4])), tf.Variable(np.array([1.0, -3.0]))
    res = []
    for fn in (two, two_tape):
        with tf.GradientTape(persistent=True) as outer:
            with tf.GradientTape(persistent=True) as tape:
                a, s = fn(x, y)
                loss = tf.reduce_sum(a ** 2) + s
            g = tape.gradient(loss, [x, y])
            only_s = tape.gradient(s, y)
            j = tape.jacobian(a, x)
            gg = tf.reduce_sum(g[0] * g[1])
        res.append([a, s, *g, only_s, j, *outer.gradient(gg, [x, y])])
    for p, q in zip(*res):
        close(p, q)


def test_custom_gradient_wraps_a_differentiable_and_vice_versa():
    @differentiate
    def softplus(x):
        return np.log1p(np.exp(x))

    @tf.custom_gradient
    def clipped(x):
        y = softplus(x)

        def grad_fn(up):
            return tf.clip_by_value(up * softplus.grad(x), -0.1, 0.1)
        return y, grad_fn

    x = tf.constant([-3.0, 0.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(clipped(x))
    close(tape.gradient(y, x), np.minimum(1 / (1 + np.exp(-x.numpy())), 0.1))

    # the generated pullback as the grad_fn of a custom gradient (second order included)
    @differentiate
    def energy(x):
        return np.sum(np.cos(x) * x)

    @tf.custom_gradient
    def tape_energy(x):
        y = tf.reduce_sum(tf.cos(x) * x)
        _, pullback = energy.vjp(x)
        return y, lambda up: pullback(up)

    x64 = tf.constant([0.1, 0.7, -1.3], dtype=tf.float64)
    with tf.GradientTape() as t2:
        t2.watch(x64)
        with tf.GradientTape() as t1:
            t1.watch(x64)
            y = tape_energy(x64)
        g = t1.gradient(y, x64)
    h = t2.gradient(g, x64)
    xv = x64.numpy()
    close(g, np.cos(xv) - xv * np.sin(xv))
    close(h, -2 * np.sin(xv) - xv * np.cos(xv))


def test_differentiable_calling_a_custom_gradient_function():
    @tf.custom_gradient
    def double_grad_identity(x):
        return x * 1.0, lambda up: up * 2.0

    @differentiate
    def uses_custom(x):
        return np.sum(double_grad_identity(x) * 3.0)

    x = tf.constant([-3.0, 0.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        z = uses_custom(x)
    close(tape.gradient(z, x), np.full(3, 6.0))


def test_cache_reused_per_structure():
    x = tf.constant(X)
    w = tf.Variable(W)
    for _ in range(3):
        with tf.GradientTape() as tape:
            y = layer(x, w)
        tape.gradient(y, w)
    entries = tape_call._CACHE[layer._t]
    assert len(entries) == 1


def test_first_order_backward_reuses_the_forward_and_higher_order_recomputes():
    @differentiate(wrt=(0, 1))
    def sin_prod(x, w):
        return np.sum(np.sin(x * w))

    xv, wv = np.array([0.3, -1.1]), np.array([0.7, 0.4])
    x, w = tf.Variable(xv), tf.Variable(wv)
    with tf.GradientTape() as tape:
        sin_prod(x, w)                       # builds the recorded op's entry
    entry = next(iter(tape_call._CACHE[sin_prod._t].values()))
    assert entry.pair is not None
    recomputed = []
    full = entry._recorded_gradient
    entry._recorded_gradient = lambda args, kw: recomputed.append(1) or full(args, kw)

    with tf.GradientTape(persistent=True) as tape:
        y = sin_prod(x, w)
    for _ in range(2):                       # the saved values serve any number of sweeps
        gx, gw = tape.gradient(y, [x, w])
        close(gx, np.cos(xv * wv) * wv, rtol=1e-12)
        close(gw, np.cos(xv * wv) * xv, rtol=1e-12)
    assert recomputed == []                  # first order: the generated backward on saved arrays

    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = sin_prod(x, w)
        gx = inner.gradient(y, x)
    assert recomputed                        # an outer tape records the sweep: the gradient as one op
    close(outer.gradient(gx, w), np.cos(xv * wv) - np.sin(xv * wv) * xv * wv, rtol=1e-12)


# --- an independent reference: finite differences ----------------------------------------------
# The tape and the transpiler read the same rule table, so their agreement alone cannot catch a
# wrong rule: the recorded op's first and second derivatives are also checked against FD.

def test_recorded_op_matches_finite_differences_to_second_order():
    from tests.fd import numeric_jvp, numeric_vjp
    r = np.linspace(0.3, -0.9, 2)
    x, w = tf.Variable(X), tf.Variable(W)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(layer(x, w) * r)
    gx, gw = tape.gradient(y, [x, w])
    plain = layer.__wrapped__
    close(gx, numeric_vjp(plain, (X, W), 0, r))
    close(gw, numeric_vjp(plain, (X, W), 1, r))

    def first(xv):                     # d/dx sum(layer * r) by the recorded op, as a numpy function
        xt = tf.Variable(xv)
        with tf.GradientTape() as t:
            out = tf.reduce_sum(layer(xt, w) * r)
        return t.gradient(out, xt).numpy()

    v = np.cos(np.arange(X.size)).reshape(X.shape)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = tf.reduce_sum(layer(x, w) * r)
        g = inner.gradient(y, x)
        s = tf.reduce_sum(g * v)
    hv = outer.gradient(s, x)          # H v (H symmetric)
    close(hv, numeric_jvp(first, (X,), (v,), eps=1e-5), rtol=1e-4, atol=1e-5)
