"""Tensors and Variables: conversion, dtypes, printing (character for character TF's), operators."""

import pickle

import numpy as np
import pytest

import runtime as tf


# --- conversion and dtypes -----------------------------------------------------------------

@pytest.mark.parametrize(
    "value, dtype",
    [
        (3.0, "float32"), (3, "int32"), (True, "bool"), ([1.0, 2.0], "float32"), ([1, 2], "int32"),
        ([[1, 2], [3.5, 4]], "float32"), (np.array([1.0, 2.0]), "float64"),
        (np.array([1, 2], dtype=np.int64), "int64"), (np.float64(2.0), "float64"), (2 ** 40, "int64"),
        ([True, False], "bool"),
    ],
)
def test_constant_infers_tf_dtypes(value, dtype):
    t = tf.constant(value)
    assert t.dtype.name == dtype
    np.testing.assert_array_equal(t.numpy(), np.asarray(value))


def test_constant_dtype_shape_and_errors():
    t = tf.constant(1, dtype=tf.float64)
    assert t.dtype == tf.float64 and t.numpy() == 1.0
    assert tf.constant(0.5, shape=(2, 3)).numpy().tolist() == [[0.5] * 3] * 2
    assert tf.constant([1, 2, 3, 4], shape=[2, 2]).shape == (2, 2)
    with pytest.raises(TypeError):
        tf.constant([1, 2, 3], shape=(2, 2))
    with pytest.raises(TypeError):
        tf.constant(2.5, dtype=tf.int32)


def test_dtype_objects_print_and_compare_like_tf():
    assert repr(tf.float32) == "tf.float32"
    assert str(tf.int64) == "<dtype: 'int64'>"
    assert repr(tf.bool) == "tf.bool" and str(tf.bool) == "<dtype: 'bool'>"
    assert tf.float32 == np.float32 and tf.float32 != tf.float64
    assert tf.as_dtype("float16") is tf.float16
    assert tf.float32.is_floating and tf.int32.is_integer and not tf.int32.is_floating


def test_shape_prints_as_tuple_and_reprs_as_tensorshape():
    t = tf.constant(np.zeros((2, 3), np.float32))
    assert str(t.shape) == "(2, 3)"
    assert repr(t.shape) == "TensorShape([2, 3])"
    assert t.shape == (2, 3) and t.shape.as_list() == [2, 3] and t.shape.rank == 2
    assert str(tf.constant([1.0]).shape) == "(1,)"
    assert t.ndim == 2 and len(t) == 2


# --- printing --------------------------------------------------------------------------------

def test_scalar_str_and_repr():
    t = tf.constant(6.0)
    assert str(t) == "tf.Tensor(6.0, shape=(), dtype=float32)"
    assert repr(t) == "<tf.Tensor: shape=(), dtype=float32, numpy=6.0>"
    assert f"{t}" == "6.0"
    assert f"{t:.2f}" == "6.00"


def test_float32_scalar_repr_shows_float64_expansion():
    t = tf.constant(0.1)
    assert str(t) == "tf.Tensor(0.1, shape=(), dtype=float32)"
    assert repr(t) == "<tf.Tensor: shape=(), dtype=float32, numpy=0.10000000149011612>"


def test_array_str_and_repr():
    t = tf.constant([4.0, 108.0])
    assert str(t) == f"tf.Tensor({np.array([4.0, 108.0], np.float32)}, shape=(2,), dtype=float32)"
    assert repr(t) == "<tf.Tensor: shape=(2,), dtype=float32, numpy=array([  4., 108.], dtype=float32)>"
    m = tf.constant([[1, 2], [3, 4]])
    assert str(m) == "tf.Tensor(\n[[1 2]\n [3 4]], shape=(2, 2), dtype=int32)"
    assert repr(m) == (
        "<tf.Tensor: shape=(2, 2), dtype=int32, numpy=\narray([[1, 2],\n       [3, 4]], dtype=int32)>"
    )
    assert repr(tf.constant(3)) == "<tf.Tensor: shape=(), dtype=int32, numpy=3>"
    assert repr(tf.constant(True)) == "<tf.Tensor: shape=(), dtype=bool, numpy=True>"


def test_seed_style_array_printing():
    # TF formats the value with numpy's str of the float32 array (padded columns included)
    x = tf.constant([2.0, 6.0])
    assert str(x * x * tf.constant([1.0, 3.0])) == "tf.Tensor([  4. 108.], shape=(2,), dtype=float32)"


def test_variable_repr_and_names():
    w = tf.Variable([1.0, 2.0], name="w")
    assert repr(w) == "<tf.Variable 'w:0' shape=(2,) dtype=float32, numpy=array([1., 2.], dtype=float32)>"
    v = tf.Variable(1.0)
    assert v.name == "Variable:0" and tf.Variable(2.0).name == "Variable:0"
    assert repr(v) == "<tf.Variable 'Variable:0' shape=() dtype=float32, numpy=1.0>"
    assert v.trainable and not tf.Variable(1.0, trainable=False).trainable
    assert tf.Variable(7).dtype == tf.int32


def test_assign_family():
    v = tf.Variable([1.0, 2.0])
    r = v.assign_add([1.0, 1.0])
    assert repr(r).startswith("<tf.Variable 'UnreadVariable' shape=(2,) dtype=float32")
    np.testing.assert_array_equal(v.numpy(), [2.0, 3.0])
    v.assign_sub(tf.constant([2.0, 3.0]))
    np.testing.assert_array_equal(v.numpy(), [0.0, 0.0])
    v.assign([5.0, 6.0])
    assert v.numpy().tolist() == [5.0, 6.0]
    with pytest.raises(ValueError):
        v.assign([1.0, 2.0, 3.0])


def test_assign_does_not_change_earlier_reads():
    v = tf.Variable([1.0, 2.0])
    snapshot = v.read_value()
    v.assign([3.0, 4.0])
    assert snapshot.numpy().tolist() == [1.0, 2.0]


# --- operators ---------------------------------------------------------------------------

def test_every_operator_with_reflected_forms():
    a = tf.constant([1.0, 2.0, 4.0])
    b = tf.constant([2.0, 3.0, 5.0])
    na, nb = a.numpy(), b.numpy()
    cases = [
        (a + b, na + nb), (a - b, na - nb), (a * b, na * nb), (a / b, na / nb), (a ** b, na ** nb),
        (a @ b, na @ nb), (-a, -na), (+a, na), (abs(-a), na), (a // b, na // nb), (a % b, na % nb),
        (2 + a, 2 + na), (2 - a, 2 - na), (2 * a, 2 * na), (2 / a, 2 / na), (2 ** a, 2 ** na),
        (a + 1, na + 1), (a * 0.5, na * 0.5),
    ]
    for got, want in cases:
        assert isinstance(got, tf.Tensor)
        assert got.dtype == tf.float32
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)


def test_comparisons_are_elementwise():
    a = tf.constant([1.0, 2.0])
    assert (a < 1.5).numpy().tolist() == [True, False]
    assert (a >= 2.0).numpy().tolist() == [False, True]
    assert (a == tf.constant([1.0, 0.0])).numpy().tolist() == [True, False]
    assert (a != 1.0).numpy().tolist() == [False, True]
    with pytest.raises(TypeError):
        hash(a)


def test_mixing_float_and_int_tensors_is_invalid_argument():
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.constant(1.0) + tf.constant(1)
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.constant([1.0, 2.0]) + tf.constant([1.0, 2.0, 3.0])


def test_python_conversions():
    s = tf.constant(2.5)
    assert float(s) == 2.5 and int(s) == 2 and bool(s)
    assert not bool(tf.constant(0.0))
    assert [1, 2, 3][tf.constant(1)] == 2
    with pytest.raises(TypeError):
        len(s)
    with pytest.raises(ValueError):
        bool(tf.constant([1.0, 2.0]))


def test_iteration_and_indexing():
    m = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    rows = list(m)
    assert len(rows) == 2 and isinstance(rows[0], tf.Tensor)
    assert rows[1].numpy().tolist() == [3.0, 4.0]
    assert m[0, 1].numpy() == 2.0
    assert m[:, 0].numpy().tolist() == [1.0, 3.0]
    assert m[tf.constant(1)].numpy().tolist() == [3.0, 4.0]


# --- numpy protocols ---------------------------------------------------------------------

def test_numpy_functions_return_tensors():
    t = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    assert isinstance(np.asarray(t), np.ndarray)
    s = np.sin(t)
    assert isinstance(s, tf.Tensor) and s.dtype == tf.float32
    np.testing.assert_allclose(s.numpy(), np.sin(t.numpy()))
    total = np.sum(t, axis=0)
    assert isinstance(total, tf.Tensor) and total.numpy().tolist() == [4.0, 6.0]
    assert isinstance(np.multiply(np.ones(2, np.float32), t), tf.Tensor)
    assert np.shape(t) == (2, 2) and np.ndim(t) == 2


def test_numpy_function_without_rule_is_a_clear_error():
    t = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with pytest.raises(TypeError, match="no derivative rule"):
        np.linalg.tensorinv(t, ind=1)


def test_tensors_and_variables_pickle():
    t = tf.constant([1.0, 2.0])
    t2 = pickle.loads(pickle.dumps(t))
    assert str(t2) == str(t)
    v = pickle.loads(pickle.dumps(tf.Variable([1.0], name="w")))
    assert v.name == "w:0" and v.numpy().tolist() == [1.0]


# --- subnormal results flushed to zero, as TF's kernels flush them ------------------------------

def _flushed_by_hand(values, dtype):
    """Element by element: a nonzero magnitude below the dtype's smallest normal becomes a zero
    of the same sign (the reference shares no code with runtime.engine.numerics.flush_subnormals)."""
    import math
    tiny = float(np.finfo(dtype).tiny)
    return [math.copysign(0.0, x) if 0 < abs(x) < tiny else x for x in values]


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("pattern", ["normal", "zeros", "zeros and subnormals", "subnormals", "nan and subnormal",
                                     "nan and zero", "signed zeros"])
def test_flush_subnormals_flushes_exactly_the_subnormals(dtype, pattern):
    from runtime.engine.numerics import flush_subnormals
    sub = float(np.finfo(dtype).tiny) / 4
    values = {"normal": [1.0, -2.5, 3.0], "zeros": [0.0, 1.0, -0.0, 2.0],
              "zeros and subnormals": [0.0, 1.0, -sub, 2.0, sub, 0.0], "subnormals": [sub, -sub, 1.0],
              "nan and subnormal": [np.nan, sub, 1.0], "nan and zero": [np.nan, 0.0, -1.0],
              "signed zeros": [-0.0, 0.0, -sub]}[pattern]
    want = np.array(_flushed_by_hand(np.array(values, dtype).tolist(), dtype), dtype)
    for shape in [(len(values),), (1, len(values))]:
        got = flush_subnormals(np.array(values, dtype).reshape(shape))
        assert got.dtype == dtype and got.shape == shape
        np.testing.assert_array_equal(got.ravel(), want)
        np.testing.assert_array_equal(np.signbit(got.ravel()), np.signbit(want))
    for size in (2047, 2048, 2049, 5000):   # small and large arrays are tested two ways
        normal = np.linspace(1.0, 2.0, size - len(values)).astype(dtype)
        got = flush_subnormals(np.concatenate([normal, np.array(values, dtype)]))
        np.testing.assert_array_equal(got[:len(normal)], normal)
        np.testing.assert_array_equal(got[len(normal):], want)
        np.testing.assert_array_equal(np.signbit(got[len(normal):]), np.signbit(want))
    for x, w in zip(values, want):     # scalars and 0-d arrays
        for v in (dtype(x), np.array(x, dtype)):
            got = flush_subnormals(v)
            assert np.array_equal(got, w, equal_nan=True) and np.signbit(got) == np.signbit(w)
    assert flush_subnormals(np.zeros((0, 3), dtype)).shape == (0, 3)


def test_gradient_of_a_subnormal_result_is_zero_where_tf_flushes():
    x = tf.Variable([1e-20, 0.0, 2.0], dtype=tf.float32)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(x * x * 1e-19)
    g = tape.gradient(y, x).numpy()
    want = _flushed_by_hand((2 * np.array([1e-20, 0.0, 2.0], np.float32) * np.float32(1e-19)).tolist(), np.float32)
    np.testing.assert_array_equal(g, np.array(want, np.float32))
    assert g[0] == 0 and g[2] != 0


def test_gradients_of_several_sources_are_flushed_each():
    """gradient() tests several same-dtype gradients at once: a subnormal in any one is still flushed."""
    x = tf.Variable([1e-20, 0.0, 2.0], dtype=tf.float32)
    w = tf.Variable([[3.0, 4.0]], dtype=tf.float32)
    u = tf.Variable(1e-20, dtype=tf.float32)
    with tf.GradientTape(persistent=True) as tape:
        y = tf.reduce_sum(x * x * 1e-19) + tf.reduce_sum(w * w) + u * u * 1e-19
    gx, gw = tape.gradient(y, [x, w])         # arrays of one dtype: one test for both
    gu, = tape.gradient(y, [u])
    want = _flushed_by_hand((2 * np.array([1e-20, 0.0, 2.0], np.float32) * np.float32(1e-19)).tolist(), np.float32)
    np.testing.assert_array_equal(gx.numpy(), np.array(want, np.float32))
    np.testing.assert_array_equal(gw.numpy(), [[6.0, 8.0]])
    assert gu.numpy() == 0 and gx.numpy()[2] != 0


def _sum_and_product(x, y):
    return x + y, x * y


def test_a_primitive_of_several_values_on_tensors_says_what_to_do():
    """The tape records one array per op: a user's primitive returning two values is refused with
    the way out, not recorded as if it had no gradient (the tape would then give None) or left
    to fail in numpy code that expects an array."""
    from runtime.rules import define, primitive
    sp = primitive(_sum_and_product)
    define(sp, vjp=(lambda g, ans, x, y: g[0] + g[1] * y, lambda g, ans, x, y: g[0] + g[1] * x))
    x, y = tf.constant(0.3, dtype=tf.float64), tf.constant(0.8, dtype=tf.float64)
    with pytest.raises(TypeError, match="COMPOSITES"):
        with tf.GradientTape() as tape:
            tape.watch(x)
            sp(x, y)
    with pytest.raises(TypeError, match="COMPOSITES"):
        s, p = sp(x, y)
    assert sp(0.3, 0.8) == (0.3 + 0.8, 0.3 * 0.8)       # on numbers it is the plain function
