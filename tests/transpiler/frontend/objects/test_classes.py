"""Classes: methods, bound methods, properties, attribute reads, a model's ``__call__``.

CASES holds the ones whose arguments are all numeric (bound methods and functions using
module-level model objects), so other suites can iterate them; the rest, where the object
itself is a parameter, are checked here with finite differences through a closure.
"""

import numpy as np
import pytest

from tests.fd import assert_close, numeric_jvp, numeric_vjp
from tests.transpiler.checks import check
from tests.transpiler.frontend.calls.test_calls import check_forward
from transpiler import differentiate, jvp

rng = np.random.default_rng(11)
V = rng.normal(size=4)
X = rng.normal(size=(5, 4))


class Scaler:
    def __init__(self, w):
        self.w = w

    @property
    def doubled(self):
        return self.w * 2.0

    def apply(self, x):
        return np.sin(self.w * x)

    def twice(self, x):
        return self.apply(x) + self.apply(x * self.doubled)

    def loss(self, x):
        return np.sum(self.twice(x) ** 2)


class Dense:
    def __init__(self, n_in, n_out, seed):
        r = np.random.default_rng(seed)
        self.w = r.normal(size=(n_in, n_out)) / np.sqrt(n_in)
        self.b = r.normal(size=n_out) * 0.1

    def __call__(self, x):
        return np.tanh(x @ self.w + self.b)


class MLP:
    """A small 2-layer model: its __call__ is differentiated with respect to the input."""

    def __init__(self):
        self.hidden = Dense(4, 6, 1)
        self.out = Dense(6, 2, 2)

    def __call__(self, x):
        return self.out(self.hidden(x))

    def forward(self, x, w1, w2):
        h = np.tanh(x @ w1 + self.hidden.b)
        return h @ w2

    def loss(self, x, w1, w2):
        y = self.forward(x, w1, w2)
        return np.mean(y * y)

    @differentiate(wrt=1)
    def energy(self, x):
        return np.sum(self(x) ** 2)


class Cell:
    """A recurrent cell whose step returns a tuple (the new state and an output)."""

    def __init__(self):
        self.a, self.b = 0.8, -0.3

    def step(self, h, x):
        h2 = np.tanh(self.a * h + x)
        return h2, h2 * self.b + x

    def run(self, xs, h):
        total = 0.0
        for x in xs:
            h, y = self.step(h, x)
            total = total + np.sum(y * y)
        return total + np.sum(h)


def unroll(cell, xs, h):
    total = 0.0
    for x in xs:
        h, y = cell.step(h, x)
        total = total + np.sum(y) * h[-1]
    return total


SCALER = Scaler(np.array([0.5, -1.0, 1.5, 0.2]))
MODEL = MLP()
W1, W2 = MODEL.hidden.w.copy(), MODEL.out.w.copy()


class _Private:
    """Private names (``self.__w``, ``self.__helper``) are mangled inside the class body."""

    def __init__(self, w):
        self.__w = w

    def __helper(self, x):
        return np.tanh(x * self.__w)

    def loss(self, x):
        return np.sum(self.__helper(x) * x)

    def nested(self, x):
        def inner(t):
            return np.sin(t) * self.__w
        return np.sum(inner(x) ** 2)


PRIVATE = _Private(1.7)


# --- functions over module-level objects (numeric arguments only) ---------------------------
def uses_method(x):
    return np.sum(SCALER.apply(x) * x)


def uses_property(x):
    return np.sum(x * SCALER.doubled + SCALER.w)


def uses_method_calling_method(x):
    return np.sum(SCALER.twice(x))


def uses_model(x):
    return np.sum(MODEL(x) ** 2)


def uses_layer_objects(x):
    h = MODEL.hidden(x)
    return np.sum(MODEL.out(h * 2.0))


def trains_weights(w1, w2):
    return MODEL.loss(X, w1, w2)


CASES = [
    (uses_method, (V,), 0),
    (uses_property, (V,), 0),
    (uses_method_calling_method, (V,), 0),
    (uses_model, (X,), 0),
    (uses_layer_objects, (X,), 0),
    (trains_weights, (W1, W2), (0, 1)),
    (SCALER.loss, (V,), 0),                  # a bound method: wrt counts the visible parameters
    (MODEL.__call__, (X,), 0),
    (MODEL.loss, (X, W1, W2), (1, 2)),
    (PRIVATE.loss, (V,), 0),
    (PRIVATE.nested, (V,), 0),
]
IDS = [getattr(c[0], "__qualname__", c[0].__name__) for c in CASES]


@pytest.mark.parametrize("fn,args,wrt", CASES, ids=IDS)
def test_reverse(fn, args, wrt):
    check(fn, *args, wrt=wrt)


@pytest.mark.parametrize("fn,args,wrt", CASES, ids=IDS)
def test_forward(fn, args, wrt):
    check_forward(fn, args, wrt)


# --- the object as a parameter (its methods are found when the code runs) ---------------------
def check_with_object(fn, obj, x):
    """Gradient/jvp of fn(obj, x) in x against finite differences through a closure."""
    d = differentiate(fn, wrt=1)
    g = d.grad(obj, x)
    assert_close(g, numeric_vjp(lambda t: fn(obj, t), (x,), 0, 1.0), 1e-5, 1e-6, what=d.source)
    t = np.random.default_rng(0).normal(size=x.shape)
    value, tout = differentiate(fn, wrt=1, mode="forward").jvp((obj, x), (t,))
    assert_close(value, fn(obj, x), 1e-12, 1e-12)
    assert_close(tout, numeric_jvp(lambda u: fn(obj, u), (x,), (t,)), 1e-5, 1e-6)
    return d


def method_of_parameter(m, x):
    return np.sum(m.apply(x) * m.doubled)


def call_of_parameter(m, x):
    return np.sum(m(x) * m(x * 0.5))


def test_methods_of_a_parameter():
    d = check_with_object(method_of_parameter, SCALER, V)
    assert "call_forward(m.apply" in d.source
    check_with_object(method_of_parameter, Scaler(np.ones(4) * 0.3), V)     # another instance
    check_with_object(call_of_parameter, MODEL, X)
    check_with_object(call_of_parameter, MODEL.hidden, X)                  # another class


def test_method_of_a_parameter_returning_a_tuple():
    cell = Cell()
    xs = rng.normal(size=(4, 3))
    h0 = rng.normal(size=3)
    for fn in (unroll, Cell.run):
        d = differentiate(fn, wrt=(1, 2))
        gx, gh = d.grad(cell, xs, h0)
        assert_close(gx, numeric_vjp(lambda a: fn(cell, a, h0), (xs,), 0, 1.0), 1e-5, 1e-6, what=d.source)
        assert_close(gh, numeric_vjp(lambda a: fn(cell, xs, a), (h0,), 0, 1.0), 1e-5, 1e-6, what=d.source)
        tx, th = rng.normal(size=xs.shape), rng.normal(size=h0.shape)
        value, tout = differentiate(fn, wrt=(1, 2), mode="forward").jvp((cell, xs, h0), (tx, th))
        assert_close(tout, numeric_jvp(lambda a, b: fn(cell, a, b), (xs, h0), (tx, th)), 1e-5, 1e-6)
    assert "item_seed(" in differentiate(unroll, wrt=(1, 2)).source


def test_unbound_call_with_self_as_argument():
    d = differentiate(MLP.__call__, wrt=1)
    assert_close(d.grad(MODEL, X), numeric_vjp(lambda t: MODEL(t), (X,), 0, 1.0), 1e-5, 1e-6)
    value, t = jvp(MLP.__call__, (MODEL, X), (np.ones_like(X),), wrt=1)
    assert_close(t, numeric_jvp(lambda u: MODEL(u), (X,), (np.ones_like(X),)), 1e-5, 1e-6)


def test_decorated_method():
    g = MODEL.energy.grad(X)
    assert_close(g, numeric_vjp(lambda t: np.sum(MODEL(t) ** 2), (X,), 0, 1.0), 1e-5, 1e-6)
    value, pullback = MODEL.energy.vjp(X)
    assert_close(pullback(1.0), g, 1e-12, 1e-12)


def test_bound_method_wrt_names_the_visible_parameters():
    d = differentiate(MODEL.loss, wrt=("w1", "w2"))
    g1, g2 = d.grad(X, W1, W2)
    assert_close(g2, numeric_vjp(lambda w: MODEL.loss(X, W1, w), (W2,), 0, 1.0), 1e-5, 1e-6)
    assert g1.shape == W1.shape


def test_attribute_reads_follow_the_object():
    s = Scaler(np.array([0.1, 0.2, 0.3, 0.4]))
    d = differentiate(method_of_parameter, wrt=1)
    before = d.grad(s, V)
    s.w = s.w * 3.0                          # attributes are read when the code runs
    after = d.grad(s, V)
    assert not np.allclose(before, after)
    assert_close(after, numeric_vjp(lambda t: method_of_parameter(s, t), (V,), 0, 1.0), 1e-5, 1e-6)
