"""keras.layers: shapes, dtypes, names, printing, initializers, and gradients vs finite differences."""

import numpy as np
import pytest

import runtime as tf
from runtime import keras
from runtime.keras import backend, initializers, layers
from tests.fd import assert_close, numeric_grad


@pytest.fixture(autouse=True)
def fresh_names():
    backend.clear_session()
    keras.utils.set_random_seed(0)
    yield


def test_dense_shapes_dtypes_and_names():
    d1, d2 = layers.Dense(30, activation="relu"), layers.Dense(1)
    x = np.random.rand(4, 3)            # float64 numpy input is cast to float32, as Keras does
    y = d2(d1(x))
    assert isinstance(y, tf.Tensor)
    assert y.shape == (4, 1) and y.dtype == tf.float32
    assert (d1.name, d2.name) == ("dense", "dense_1")
    assert [v.name for v in d1.weights] == ["kernel", "bias"]
    assert [v.path for v in d1.weights] == ["dense/kernel", "dense/bias"]
    assert d1.kernel.shape == (3, 30) and d1.bias.shape == (30,)
    assert d1.kernel.dtype == tf.float32
    assert isinstance(d1.kernel, tf.Variable)
    assert d1.count_params() == 120


def test_keras_variable_prints_like_keras3():
    d = layers.Dense(2, kernel_initializer="ones")
    d(np.zeros((1, 3)))
    assert repr(d.bias) == "<Variable path=dense/bias, shape=(2,), dtype=float32, value=[0. 0.]>"
    assert repr(d.kernel).startswith("<Variable path=dense/kernel, shape=(3, 2), dtype=float32, value=[[1. 1.]")


def test_dense_on_tensor_and_rank3():
    d = layers.Dense(5)
    y = d(tf.constant(np.ones((2, 4, 3), np.float32)))
    assert y.shape == (2, 4, 5)


def test_dense_activation_callable_and_no_bias():
    d = layers.Dense(3, activation=lambda t: t * 2.0, use_bias=False, kernel_initializer="ones")
    y = d(np.ones((1, 2), np.float32))
    np.testing.assert_array_equal(y.numpy(), [[4.0, 4.0, 4.0]])
    assert len(d.weights) == 1


def test_initializers_by_name_and_callable():
    const = layers.Dense(2, kernel_initializer=initializers.Constant(0.5), bias_initializer="ones")
    const(np.zeros((1, 3)))
    np.testing.assert_array_equal(const.kernel.numpy(), np.full((3, 2), 0.5, np.float32))
    np.testing.assert_array_equal(const.bias.numpy(), [1.0, 1.0])

    def my_init(shape, dtype=None):          # what tf.constant_initializer(...) looks like to Dense
        return tf.constant(np.arange(np.prod(shape), dtype=np.float32).reshape(shape))
    d = layers.Dense(2, kernel_initializer=my_init)
    d(np.zeros((1, 2)))
    np.testing.assert_array_equal(d.kernel.numpy(), [[0, 1], [2, 3]])
    z = layers.Dense(2, kernel_initializer="zeros")
    z(np.zeros((1, 2)))
    assert not z.kernel.numpy().any()


def test_glorot_uniform_limit_and_he_normal_spread():
    w = initializers.GlorotUniform(seed=1)((200, 300)).numpy()
    limit = np.sqrt(6.0 / 500)
    assert w.dtype == np.float32 and np.abs(w).max() <= limit and np.abs(w).max() > 0.95 * limit
    h = initializers.get("he_normal")((400, 300)).numpy()
    std = np.sqrt(2.0 / 400)
    assert abs(h.std() / std - 1) < 0.03           # truncation rescaled to keep the variance
    assert np.abs(h).max() <= 2 * std / 0.87962566103423978 + 1e-6
    # a seeded initializer is reproducible
    np.testing.assert_array_equal(initializers.HeNormal(seed=3)((4, 4)).numpy(),
                                  initializers.HeNormal(seed=3)((4, 4)).numpy())


def test_set_random_seed_makes_models_reproducible():
    keras.utils.set_random_seed(7)
    a = layers.Dense(4)
    a(np.zeros((1, 3)))
    keras.utils.set_random_seed(7)
    b = layers.Dense(4)
    b(np.zeros((1, 3)))
    np.testing.assert_array_equal(a.kernel.numpy(), b.kernel.numpy())


@pytest.mark.parametrize("activation", ["relu", "sigmoid", "tanh", "softplus", "linear", "elu", "softmax"])
def test_dense_gradients_match_finite_differences(activation):
    rng = np.random.default_rng(1)
    d = layers.Dense(3, activation=activation, dtype="float64")
    x0 = rng.normal(size=(4, 2))
    d(x0)
    k0, b0 = d.kernel.numpy().copy(), d.bias.numpy().copy() + 0.1
    d.bias.assign(b0)
    x = tf.constant(x0)
    w = rng.normal(size=(4, 3))            # a random cotangent makes the test sensitive to every output

    with tf.GradientTape() as tape:
        tape.watch(x)
        out = np.sum(d(x) * w)
    gk, gb, gx = tape.gradient(out, [d.kernel, d.bias, x])

    act = keras.activations.get(activation)

    def f(k=k0, b=b0, xx=x0):
        return np.sum(np.asarray(act(tf.constant(xx @ k + b))) * w)

    assert_close(gk, numeric_grad(lambda k: f(k=k), k0), rtol=1e-5, atol=1e-7, what="kernel")
    assert_close(gb, numeric_grad(lambda b: f(b=b), b0), rtol=1e-5, atol=1e-7, what="bias")
    assert_close(gx, numeric_grad(lambda xx: f(xx=xx), x0), rtol=1e-5, atol=1e-7, what="input")


def test_regularizers_add_losses_with_gradients():
    d = layers.Dense(2, kernel_regularizer=keras.regularizers.L2(0.1), bias_regularizer="l1",
                     kernel_initializer="ones", bias_initializer="ones", dtype="float64")
    d(np.zeros((1, 3)))
    (lk, lb) = d.losses
    assert float(lk) == pytest.approx(0.1 * 6) and float(lb) == pytest.approx(0.01 * 2)
    with tf.GradientTape() as tape:
        d(np.zeros((1, 3)))
        total = d.losses[0] + d.losses[1]
    gk, gb = tape.gradient(total, [d.kernel, d.bias])
    np.testing.assert_allclose(gk.numpy(), 0.2 * np.ones((3, 2)))
    np.testing.assert_allclose(gb.numpy(), 0.01 * np.ones(2))


def test_flatten_dropout_activation():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    f = layers.Flatten()
    assert f(x).shape == (2, 12) and f.compute_output_shape((None, 3, 4)) == (None, 12)
    a = layers.Activation("relu")
    np.testing.assert_array_equal(a(np.array([[-1.0, 2.0]])).numpy(), [[0.0, 2.0]])

    drop = layers.Dropout(0.5, seed=0)
    ones = np.ones((1000,), np.float32)
    np.testing.assert_array_equal(drop(ones).numpy(), ones)          # inference: identity
    y = drop(ones, training=True).numpy()
    assert set(np.unique(y)) <= {0.0, 2.0} and 0.4 < (y == 0).mean() < 0.6
    t = tf.constant(ones)
    with tf.GradientTape() as tape:
        tape.watch(t)
        out = drop(t, training=True)
    g = tape.gradient(out, t).numpy()
    np.testing.assert_array_equal(g, out.numpy())                    # d/dx (x * mask / (1-rate))


def test_dropout_follows_training_of_enclosing_model():
    class M(keras.Model):
        def __init__(self):
            super().__init__()
            self.drop = layers.Dropout(0.999, seed=1)

        def call(self, x, training=None):
            return self.drop(x)

    m = M()
    x = np.ones((50,), np.float32)
    np.testing.assert_array_equal(m(x).numpy(), x)
    assert (m(x, training=True).numpy() == 0).mean() > 0.9


def test_layer_subclass_with_add_weight_and_tracking():
    class Linear(layers.Layer):
        def __init__(self, units=4, **kwargs):
            super().__init__(**kwargs)
            self.units = units

        def build(self, input_shape):
            self.w = self.add_weight(shape=(input_shape[-1], self.units), initializer="random_normal", name="w")
            self.b = self.add_weight(shape=(self.units,), initializer="zeros", trainable=False, name="b")

        def call(self, inputs):
            return np.matmul(inputs, self.w) + self.b

    lin = Linear()
    assert lin.name == "linear"
    y = lin(np.ones((2, 3)))
    assert y.shape == (2, 4)
    assert [v.name for v in lin.trainable_variables] == ["w"]
    assert [v.name for v in lin.non_trainable_variables] == ["b"]
    with tf.GradientTape() as tape:
        out = np.sum(lin(np.ones((2, 3))))
    g = tape.gradient(out, lin.trainable_variables)[0]
    np.testing.assert_allclose(g.numpy(), 2 * np.ones((3, 4)))

    class Block(layers.Layer):
        def __init__(self):
            super().__init__()
            self.stack = [layers.Dense(2), layers.Dense(3)]

        def call(self, x):
            for layer in self.stack:
                x = layer(x)
            return x

    blk = Block()
    blk(np.ones((1, 2)))
    assert [v.path for v in blk.variables] == ["block/dense/kernel", "block/dense/bias",
                                               "block/dense_1/kernel", "block/dense_1/bias"]
    blk.trainable = False
    assert blk.trainable_variables == [] and len(blk.non_trainable_variables) == 4


def test_input_is_symbolic():
    inp = keras.Input(shape=(3,))
    assert tuple(inp.shape) == (None, 3) and inp.dtype == "float32"
    out = layers.Dense(4)(inp)
    assert tuple(out.shape) == (None, 4)


def test_variables_follow_every_change_after_being_read():
    """``variables`` is kept between reads: each change to what it lists shows at the next read."""
    class Block(layers.Layer):
        def __init__(self):
            super().__init__()
            self.inner = layers.Dense(2)
            self.extra = []

        def call(self, x):
            return self.inner(x)

    def ids(vs):
        return [id(v) for v in vs]

    b = Block()
    assert b.variables == []
    b(np.ones((1, 3)))                                   # the sublayer builds its kernel and bias
    inner = [b.inner.kernel, b.inner.bias]
    assert ids(b.variables) == ids(inner)
    scale = b.add_weight(shape=(1,), initializer="ones", name="scale")
    assert ids(b.variables) == ids([scale] + inner)     # own weights first, then the sublayers'
    b.extra.append(layers.Dense(1))                      # a tracked list grows...
    assert ids(b.variables) == ids([scale] + inner)
    b.extra[0](np.ones((1, 2)))                          # ...and its layer builds later
    extra = [b.extra[0].kernel, b.extra[0].bias]
    assert ids(b.variables) == ids([scale] + inner + extra)
    b.v = tf.Variable(1.0)
    assert ids(b.variables) == ids([scale, b.v] + inner + extra)
    del b.v
    b.inner = layers.Dense(4)                            # replaced, not built yet
    assert ids(b.variables) == ids([scale] + extra)
    swapped = layers.Dense(1)
    swapped(np.ones((1, 2)))
    b.extra[0] = swapped                                 # an item replaced: the list keeps its length
    extra = [swapped.kernel, swapped.bias]
    assert ids(b.variables) == ids([scale] + extra)
    b.table = {"a": layers.Dense(1)}
    b.table["a"](np.ones((1, 2)))
    assert ids(b.variables) == ids([scale] + extra + [b.table["a"].kernel, b.table["a"].bias])
    b.table["a"] = swapped                               # a dict value replaced: seen once
    assert ids(b.variables) == ids([scale] + extra)
    del b.table
    listed = b.variables
    listed.clear()                                       # the caller's own list
    assert ids(b.variables) == ids([scale] + extra)
    seq = keras.Sequential([layers.Dense(2)])
    seq(np.ones((1, 3)))
    assert len(seq.variables) == 2
    seq.add(layers.Dense(1))
    seq(np.ones((1, 3)))
    assert len(seq.variables) == 4
