"""numpy calls on tensors (runtime/engine/protocol.py): what is recorded, what is refused rather than
silently losing a gradient, and complex intermediates of real parameters."""

import numpy as np
import pytest

import runtime as tf
from tests.fd import assert_close, numeric_grad, numeric_jvp
from tests.runtime.rules.rules_check import tape_hvp


def grad(f, *xs):
    xs = [tf.constant(np.asarray(x, dtype=np.float64)) for x in xs]
    with tf.GradientTape() as tape:
        for x in xs:
            tape.watch(x)
        y = f(*xs)
    return [None if g is None else np.asarray(g) for g in tape.gradient(y, xs)]


# --- conversions that would drop the gradient are refused ----------------------------------------------
# numpy hands a call to a tensor only when the tensor is a direct argument (or an item of a sequence
# argument, np.stack([t, ...])); otherwise it converts the tensor itself through __array__, which has
# no way to return a tensor.  These are refused, never silently constant.

REFUSED = {
    "np.array of a list": lambda v: np.sum(np.array([v, v])) + v,
    "np.array": lambda v: np.array(v) + v,
    "np.asarray": lambda v: np.asarray(v) + v,
    "np.full": lambda v: np.sum(np.full((2,), v)) + v,
    "np.full with a dtype": lambda v: np.sum(np.full((2,), v, dtype=np.float64)) + v,
    "np.full_like of an array": lambda v: np.sum(np.full_like(np.zeros(2), v)) + v,
    "np.mean of a list": lambda v: np.mean([v, v + 2]),
    "np.linalg.norm of a list": lambda v: np.linalg.norm([v, v]),
    "np.append of lists": lambda v: np.sum(np.append([v], [v * 2])),
    "np.sin of a list": lambda v: np.sum(np.sin([v, v])),
    "np.concatenate of lists": lambda v: np.sum(np.concatenate([[1.0, v], [v]])),
    "np.array of products": lambda v: np.sum(np.array([v[0] * v[1], v[1]])),
}


@pytest.mark.parametrize("name", REFUSED)
def test_conversions_of_recorded_tensors_are_refused(name):
    with pytest.raises(TypeError, match="np.stack"):
        grad(REFUSED[name], [1.5, 2.0] if "products" in name else 1.5)


@pytest.mark.parametrize("name", ["np.asarray", "np.mean of a list", "np.full with a dtype"])
def test_conversions_under_a_forward_accumulator_are_refused(name):
    x = tf.constant(np.array(1.5))
    with tf.autodiff.ForwardAccumulator(x, tf.constant(np.array(1.0))):
        with pytest.raises(TypeError, match="np.stack"):
            REFUSED[name](x)


def test_trainable_variables_are_refused_before_their_first_recorded_read():
    v = tf.Variable(np.array(2.0))
    with tf.GradientTape() as tape:
        with pytest.raises(TypeError, match="np.stack"):
            np.array([v, v])
    assert tape.watched_variables() == ()


def test_conversions_outside_a_tape_or_of_untracked_tensors_still_work():
    x = tf.constant(np.array([1.0, 2.0]))
    assert np.asarray(x).tolist() == [1.0, 2.0]
    with tf.GradientTape():
        np.testing.assert_array_equal(np.array([x, x]), [[1.0, 2.0], [1.0, 2.0]])   # x is not watched
    with tf.GradientTape() as tape:
        tape.watch(x)
        with tape.stop_recording():
            assert np.asarray(x).shape == (2,)


def test_conversions_to_integers_lose_no_gradient_and_are_allowed():
    """np.int64(t) / np.asarray(t, dtype=int) of a recorded tensor: an integer has no gradient (as
    tf.cast to an integer dtype gives None), so nothing is dropped (autograd's test_cast_to_int:
    indices computed from the parameters, W[np.int64(W[:, -1])])."""
    x = tf.constant(np.array([0.2, 1.7, 1.2]))
    with tf.GradientTape() as tape:
        tape.watch(x)
        idx = np.int64(x)
        assert idx.dtype == np.int64 and idx.tolist() == [0, 1, 1]
        assert np.asarray(x, dtype=bool).all()
        y = np.sum(x[np.asarray(x, dtype=np.intp)] * x)
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [2 * 0.2, 2 * 1.7 + 1.2, 1.7])   # x0² + x1² + x1 x2
    with tf.GradientTape() as tape:
        tape.watch(x)
        with pytest.raises(TypeError, match="np.stack"):
            np.asarray(x, dtype=np.float32)          # a float copy would drop the gradient: refused


def test_the_recorded_ways_give_the_gradients():
    assert grad(lambda v: np.sum(np.stack([v, v])) + v, 2.0)[0] == 3.0
    assert grad(lambda v: np.mean(np.stack([v, v + 2])), 2.0)[0] == 1.0
    assert grad(lambda v: np.sum(np.append(v, v * 3.0)) + v, 2.0)[0] == 5.0


# --- lists of tensors in calls numpy does hand to the tape: stacked, so they are differentiated -----------

X0 = np.array([0.7, -1.3])
W3 = np.array([1.0, -2.0, 0.5])
LISTS = {
    "np.append(list, tensor)": lambda v: np.append([1.0, v[0] * v[1]], v) * np.array([1.0, 2.0, -1.0, 3.0]),
    "np.dot(list, tensor)": lambda v: np.dot([v[0] * v[1], np.sin(v[1])], v),
    "np.add(list, tensor)": lambda v: np.sin(np.add([v[0] * v[1], v[1] ** 2], v)),
    "np.where(c, list, tensor)": lambda v: np.where([True, False], [v[0] ** 2 * v[1], 1.0], v) ** 2,
    "np.maximum(tensor, list)": lambda v: np.maximum(v, [v[1] * 2.0, v[0] ** 3]),
    "np.concatenate([tensor, list])": lambda v: np.concatenate([v, [v[0] * v[1], 2.0]]) ** 2,
    "np.stack([tensor, list])": lambda v: np.stack([v, [v[1], v[0] ** 2]]) * v,
    "np.select(conds, [list, tensor])": lambda v: np.select([[True, False], [False, True]],
                                                             [[v[0] ** 2, v[1]], v * v[0]]),
    "np.full(shape, t, like=t)": lambda v: np.full((3, 2), v, like=v) ** 3 * W3[:, None],
    "np.full_like(t, s)": lambda v: np.full_like(v * v, v[0] * v[1]) * v,
}


def _on_arrays(f):
    """f on plain ndarrays: the finite-difference reference (like= an ndarray is plain numpy)."""
    return lambda x: np.asarray(f(x), dtype=np.float64)


@pytest.mark.parametrize("name", LISTS)
def test_lists_of_tensors_are_differentiated_in_reverse_mode(name):
    f = LISTS[name]
    w = np.random.default_rng(1).standard_normal(np.shape(_on_arrays(f)(X0)))
    (g,) = grad(lambda v: np.sum(f(v) * w), X0)
    assert_close(g, numeric_grad(lambda x: np.sum(_on_arrays(f)(x) * w), X0), what=name)


@pytest.mark.parametrize("name", LISTS)
def test_lists_of_tensors_are_differentiated_in_forward_mode(name):
    f = LISTS[name]
    t0 = np.array([0.3, 1.1])
    x = tf.constant(X0)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(t0)) as acc:
        y = f(x)
    assert_close(np.asarray(acc.jvp(y)), numeric_jvp(_on_arrays(f), [X0], [t0]), what=name)


@pytest.mark.parametrize("name", LISTS)
def test_lists_of_tensors_are_differentiated_at_second_order(name):
    f = LISTS[name]
    rng = np.random.default_rng(2)
    w = rng.standard_normal(np.shape(_on_arrays(f)(X0)))
    v = rng.standard_normal(2)
    got = tape_hvp(f, [X0], 0, w, v)
    phi = lambda x: np.sum(_on_arrays(f)(x) * w)  # noqa: E731
    eps = 1e-4
    want = (numeric_grad(phi, X0 + eps * v, 1e-5) - numeric_grad(phi, X0 - eps * v, 1e-5)) / (2 * eps)
    assert_close(np.zeros(2) if got is None else got, want, rtol=1e-4, atol=1e-4, what=name)


# --- calls the protocol rewrites ------------------------------------------------------------------------

def test_einsum_sublist_form_is_recorded():
    a = np.array([[1.0, 2.0], [3.0, 4.0]])
    b = np.array([0.5, -1.0])
    ga, gb = grad(lambda x, y: np.sum(np.einsum(x, [0, 1], y, [1], [0]) ** 2), a, b)
    f = lambda x: np.sum((x @ b) ** 2)  # noqa: E731
    assert_close(ga, numeric_grad(f, a))
    assert_close(gb, numeric_grad(lambda y: np.sum((a @ y) ** 2), b))


@pytest.mark.parametrize("split", [
    lambda x: np.split(x, 3), lambda x: np.split(x, [1, 4]), lambda x: np.array_split(x, 4),
    lambda x: np.hsplit(x, [2]), lambda x: np.unstack(x) if hasattr(np, "unstack") else list(x),
])
def test_splits_are_slices_of_the_tensor(split):
    x0 = np.arange(6.0) + 1.0
    w = np.linspace(1.0, 2.0, 6)

    def f(x):
        return sum(np.sum(p * p * w[: np.size(p)]) for p in split(x))
    (g,) = grad(f, x0)
    assert_close(g, numeric_grad(f, x0))


def test_keyword_arguments_with_rules_receive_gradients():
    a = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 7.0]])
    w = np.array([0.5, 1.0, 2.0])
    ga, gw = grad(lambda a_, w_: np.sum(np.average(a_, axis=1, weights=w_) ** 2), a, w)
    assert_close(gw, numeric_grad(lambda w_: np.sum(np.average(a, axis=1, weights=w_) ** 2), w))
    assert_close(ga, numeric_grad(lambda a_: np.sum(np.average(a_, axis=1, weights=w) ** 2), a))


def test_a_recorded_tensor_in_a_keyword_without_a_rule_is_refused():
    with pytest.raises(TypeError, match="constant_values="):
        grad(lambda x, c: np.sum(np.pad(x, 1, constant_values=c)), [1.0, 2.0], 3.0)


def test_atleast_with_several_arrays():
    g1, g2 = grad(lambda x, y: sum(np.sum(a * a) for a in np.atleast_2d(x, y)), 1.5, [1.0, 2.0])
    assert_close(g1, 3.0)
    assert_close(g2, [2.0, 4.0])


# --- functions without rules ---------------------------------------------------------------------------

def test_a_function_without_a_rule_names_itself_and_its_family_file():
    with pytest.raises(TypeError) as err:
        grad(lambda x: np.sum(np.corrcoef(x)), [[1.0, 2.0, 4.0], [0.0, 1.0, 3.0]])
    message = str(err.value)
    assert "np.corrcoef has no derivative rule" in message and "runtime/rules/statistics.py" in message
    with pytest.raises(TypeError, match=r"np.histogram has no derivative rule .*runtime/rules/"):
        grad(lambda x: np.sum(np.histogram(x)[0]), [1.0, 2.0])


# --- complex numbers -----------------------------------------------------------------------------------

def test_a_python_complex_times_a_real_tensor_is_refused_like_tf():
    with pytest.raises(TypeError, match="Cannot convert 1j to EagerTensor of dtype float64"):
        grad(lambda y: 1j * y, 2.0)


W = np.array([0.7, -1.3])
C = np.array([0.3 - 0.8j, 1.1 + 0.4j])
PARTS = {
    "abs": lambda z: np.abs(z),
    "real": lambda z: np.real(z),
    "imag": lambda z: np.imag(z),
    "angle": lambda z: np.angle(z),
    "angle deg": lambda z: np.angle(z, deg=True),
    "conj": lambda z: np.real(np.conj(z) * C),
    "exp then abs": lambda z: np.abs(np.exp(z) * C) ** 2,
}


@pytest.mark.parametrize("name", PARTS)
def test_real_parameters_of_complex_intermediates_get_real_gradients(name):
    part = PARTS[name]
    x0, y0 = np.array([0.6, -1.2]), np.array([0.9, 0.4])

    def loss(x, y):
        return np.sum(part(np.add(x, np.multiply(y, 1j))) * W)
    gx, gy = grad(loss, x0, y0)
    assert gx.dtype == np.float64 and gy.dtype == np.float64
    assert_close(gx, numeric_grad(lambda x: loss(x, y0), x0))
    assert_close(gy, numeric_grad(lambda y: loss(x0, y), y0))


def test_std_of_one_element_has_a_zero_gradient():
    (g,) = grad(lambda x: np.std(x) + np.nanstd(x), [3.0])
    assert g.tolist() == [0.0]
