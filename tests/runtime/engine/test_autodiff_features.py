"""custom_gradient, recompute_grad, stop_gradient, ForwardAccumulator, IndexedSlices, tf.Module,
tf.nest: behaviour as TensorFlow documents it."""

import numpy as np
import pytest

import runtime as tf
from tests.fd import assert_close


# --- custom_gradient ---------------------------------------------------------------------

@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))

    return tf.math.log(1 + e), grad


def test_custom_gradient_replaces_the_unstable_gradient():
    x = tf.constant(100.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = log1pexp(x)
    assert float(t.gradient(y, x)) == 1.0


def test_custom_gradient_second_order_through_ops_used_by_grad_fn():
    x = tf.constant(1.0, dtype=tf.float64)
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = log1pexp(x)
        g = t1.gradient(y, x)
    s = 1 / (1 + np.exp(-1.0))
    assert_close(g.numpy(), s)
    assert_close(t2.gradient(g, x).numpy(), s * (1 - s))


def test_custom_gradient_with_variables():
    weights = tf.Variable([1.0, 2.0])

    @tf.custom_gradient
    def linear_poly(x):
        poly = weights[1] * x + weights[0]

        def grad_fn(dpoly, variables):
            assert len(variables) == 1 and variables[0] is weights
            dy_dw = dpoly * tf.stack([x ** 1, x ** 0])
            return dpoly * weights[1], [tf.reduce_sum(tf.reshape(dy_dw, [2, -1]), axis=1)]

        return poly, grad_fn

    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        poly = linear_poly(x)
    assert poly.numpy().tolist() == [3.0, 5.0, 7.0]
    assert tape.gradient(poly, x).numpy().tolist() == [2.0, 2.0, 2.0]
    assert tape.gradient(poly, weights).numpy().tolist() == [6.0, 3.0]


def test_custom_gradient_using_variables_requires_variables_keyword():
    w = tf.Variable(2.0)

    @tf.custom_gradient
    def f(x):
        return x * w, lambda dy: dy

    with pytest.raises(TypeError, match="variables"):
        f(tf.constant(1.0))


def test_custom_gradient_multiple_inputs_and_outputs():
    @tf.custom_gradient
    def f(a, b):
        def grad(d1, d2):
            return d1 * 10.0 + d2, d2 * 100.0
        return (a * b, a + b), grad

    a, b = tf.constant(2.0), tf.constant(3.0)
    with tf.GradientTape(persistent=True) as t:
        t.watch([a, b])
        p, s = f(a, b)
        only_first = p * 1.0
    assert p.numpy() == 6.0 and s.numpy() == 5.0
    ga, gb = t.gradient([p, s], [a, b])
    assert (float(ga), float(gb)) == (11.0, 100.0)
    ga, gb = t.gradient(only_first, [a, b])
    assert (float(ga), float(gb)) == (10.0, 0.0)
    j = t.jacobian(s, a)
    assert float(j) == 1.0


def test_stop_gradient_and_recompute_grad():
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * tf.stop_gradient(x * x)
    assert float(t.gradient(y, x)) == 9.0

    w = tf.Variable([[0.5, -1.0], [2.0, 0.1]], dtype=tf.float64)

    def block(h):
        return tf.tanh(tf.matmul(h, w)) * h

    x = tf.constant([[1.0, 2.0]], dtype=tf.float64)
    with tf.GradientTape(persistent=True) as plain:
        plain.watch(x)
        y1 = tf.reduce_sum(block(block(x)))
    re_block = tf.recompute_grad(block)
    with tf.GradientTape(persistent=True) as saved:
        saved.watch(x)
        y2 = tf.reduce_sum(re_block(re_block(x)))
    assert len(saved._nodes) < len(plain._nodes)
    for s in (x, w):
        assert_close(saved.gradient(y2, s).numpy(), plain.gradient(y1, s).numpy())


# --- ForwardAccumulator --------------------------------------------------------------------

def test_forward_accumulator_jvp_matches_directional_derivative():
    x = tf.constant([1.0, 2.0, 0.5], dtype=tf.float64)
    v = tf.constant([0.3, -1.0, 2.0], dtype=tf.float64)
    with tf.autodiff.ForwardAccumulator(primals=x, tangents=v) as acc:
        y = tf.reduce_sum(tf.sin(x) * tf.exp(x)) + tf.matmul(tf.reshape(x, [1, 3]), tf.reshape(x, [3, 1]))
        u = tf.constant(5.0)
    xv = x.numpy()
    eps = 1e-6
    f = lambda z: np.sum(np.sin(z) * np.exp(z)) + z @ z
    expected = (f(xv + eps * v.numpy()) - f(xv - eps * v.numpy())) / (2 * eps)
    assert_close(acc.jvp(y).numpy(), [[expected]])
    assert acc.jvp(u) is None
    assert float(acc.jvp(u, unconnected_gradients=tf.UnconnectedGradients.ZERO)) == 0.0
    assert acc.jvp(x) is v


def test_forward_accumulator_with_variable_primal():
    kernel = tf.Variable([[1.0], [2.0]])
    x = tf.constant([[2.0, 3.0], [1.0, 4.0]])
    with tf.autodiff.ForwardAccumulator(primals=kernel, tangents=tf.constant([[1.0], [0.0]])) as acc:
        loss = tf.reduce_sum((tf.matmul(x, kernel) - tf.constant([[1.0], [-1.0]])) ** 2.0)
    # d loss = sum 2 (xk - t) * (x @ [1, 0]) = 2*(8-1)*2 + 2*(9+1)*1
    assert float(acc.jvp(loss)) == 48.0


def test_forward_over_backward_hessian_vector_product():
    x = tf.constant([1.0, 2.0], dtype=tf.float64)
    v = tf.constant([1.0, -1.0], dtype=tf.float64)
    with tf.autodiff.ForwardAccumulator(x, v) as acc:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(x ** 3) + x[0] * x[1]
        g = tape.gradient(y, x)
    hessian = np.array([[6.0, 1.0], [1.0, 12.0]])
    assert_close(acc.jvp(g).numpy(), hessian @ v.numpy())


def test_backward_over_forward_and_forward_over_forward():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 0.0])) as acc:
            y = x ** 3
        jvp = acc.jvp(y)
    assert tape.gradient(jvp, x).numpy().tolist() == [6.0, 0.0]
    v = tf.constant([1.0, 1.0])
    with tf.autodiff.ForwardAccumulator(x, v) as outer:
        with tf.autodiff.ForwardAccumulator(x, v) as inner:
            y = x ** 3
        d = inner.jvp(y)
    assert outer.jvp(d).numpy().tolist() == [6.0, 12.0]


def test_forward_accumulator_checks_shapes():
    with pytest.raises(ValueError):
        tf.autodiff.ForwardAccumulator(tf.constant([1.0, 2.0]), tf.constant([1.0]))


# --- IndexedSlices -------------------------------------------------------------------------

def test_gather_on_variable_gives_indexed_slices():
    v = tf.Variable([[0.0, 1, 2], [2, 3, 4], [4, 5, 6], [6, 7, 8]])
    with tf.GradientTape() as tape:
        r = tf.gather(v, [1, 3, 1])
    s = tape.gradient(r, v)
    assert isinstance(s, tf.IndexedSlices)
    assert s.indices.dtype == tf.int32 and s.indices.numpy().tolist() == [1, 3, 1]
    assert s.values.numpy().tolist() == [[1.0] * 3] * 3
    assert s.dense_shape.numpy().tolist() == [4, 3]
    dense = tf.convert_to_tensor(s)
    assert dense.numpy().tolist() == [[0, 0, 0], [2, 2, 2], [0, 0, 0], [1, 1, 1]]
    assert repr(s).startswith("IndexedSlices(\nindices=tf.Tensor([1 3 1], shape=(3,), dtype=int32),\nvalues=")


def test_gather_watched_tensor_sparse_other_axis_and_slices_dense():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        a = tf.gather(x, [2])
        b = tf.gather(x, [1], axis=1)
        c = x[1:]
        d = tf.gather(x * 2, [0])
        e = tf.gather(x, [0]) + tf.reduce_sum(x)
        f = tf.gather(x, [0]) * tf.gather(x, [1])
    assert isinstance(t.gradient(a, x), tf.IndexedSlices)
    for y in (b, c, d, e):
        assert isinstance(t.gradient(y, x), tf.Tensor)
    assert t.gradient(e, x).numpy().tolist() == [[3, 3], [2, 2], [2, 2]]
    fs = t.gradient(f, x)
    assert isinstance(fs, tf.IndexedSlices) and sorted(fs.indices.numpy().tolist()) == [0, 1]
    assert tf.convert_to_tensor(fs).numpy().tolist() == [[3, 4], [1, 2], [0, 0]]


# --- tf.Module, tf.nest ----------------------------------------------------------------------

class Dense(tf.Module):
    def __init__(self, n_in, n_out, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(tf.ones([n_in, n_out]), name="w")
        self.b = tf.Variable(tf.zeros([n_out]), name="b")

    def __call__(self, x):
        return tf.nn.relu(tf.matmul(x, self.w) + self.b)


class MLP(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.layers = [Dense(2, 3), Dense(3, 1, name="head")]
        self.scale = tf.Variable(1.0, trainable=False, name="scale")
        self.alias = self.layers[0]


def test_module_tracks_variables_sorted_by_attribute_and_submodules():
    m = MLP(name="mlp")
    assert m.name == "mlp" and Dense(1, 1).name == "dense" and MLP().name == "mlp"
    names = [v.name for v in m.variables]
    assert names == ["scale:0", "b:0", "w:0", "b:0", "w:0"]
    assert [v.name for v in m.trainable_variables] == ["b:0", "w:0", "b:0", "w:0"]
    assert [v.name for v in m.non_trainable_variables] == ["scale:0"]
    subs = m.submodules
    assert len(subs) == 2 and subs[1].name == "head"
    assert isinstance(m.variables, tuple)
    x = tf.constant([[1.0, 2.0]])
    with tf.GradientTape() as t:
        y = tf.reduce_sum(m.layers[1](m.layers[0](x)))
    grads = t.gradient(y, m.trainable_variables)
    assert all(g is not None for g in grads)
    with pytest.raises(ValueError):
        tf.Module(name="not valid")


def test_nest_basics():
    s = {"b": tf.constant(2.0), "a": [tf.constant(1.0), (tf.constant(3.0),)]}
    flat = tf.nest.flatten(s)
    assert [float(t) for t in flat] == [1.0, 3.0, 2.0]
    doubled = tf.nest.map_structure(lambda t: t * 2, s)
    assert float(doubled["a"][1][0]) == 6.0 and isinstance(doubled["a"][1], tuple)
    packed = tf.nest.pack_sequence_as(s, [10, 30, 20])
    assert packed == {"b": 20, "a": [10, (30,)]}
