"""tf.experimental.numpy: TF's numpy behaviour (ndarray methods on tensors, numpy's dtype promotion
in operators) and numpy's names on tensors, differentiated in both modes and at second order.

What TF 2.21 prints for the same programs is in tests/runtime/tf_corpus/numpy_behavior_*.py.  Here:
numpy-style functions (methods on the argument) in both halves against finite differences: the
transpiler reads them on arrays; the tape, after experimental_enable_numpy_behavior(), on tensors.
"""

import numpy as np
import pytest

import runtime as tf
from runtime.experimental import numpy as tnp
from tests import halves
from tests.fd import assert_close, numeric_grad

TF_METHODS = ["reshape", "ravel", "flatten", "transpose", "astype", "clip", "max", "min", "mean", "size",
              "data", "tolist"]


@pytest.fixture
def numpy_behavior():
    tnp.experimental_enable_numpy_behavior()
    yield
    tnp._disable_numpy_behavior()


def test_tensors_keep_tfs_attributes_without_the_call():
    t = tf.constant([1.0, 2.0])
    assert not [m for m in TF_METHODS + ["sum", "dot", "squeeze", "item"] if hasattr(t, m)]
    with pytest.raises(Exception, match="float32|int32"):
        t + tf.constant([1, 2])


def test_the_call_adds_tfs_methods_and_undoing_it_removes_them(numpy_behavior):
    t = tf.constant([1.0, 2.0])
    assert all(hasattr(t, m) for m in TF_METHODS)
    assert not hasattr(tf.Variable([1.0]), "reshape")        # as in TF
    assert (t + tf.constant([1, 2])).dtype == tf.float64
    tnp._disable_numpy_behavior()
    assert not [m for m in TF_METHODS if hasattr(t, m)] and hasattr(t, "T")      # (T is the rules')
    tnp.experimental_enable_numpy_behavior()


METHOD_PROGRAMS = [
    "np.sum(x.reshape(3, 2).T.ravel() ** 2)",
    "x.max(axis=1).mean() + x.min() * x.mean(axis=0).sum()",
    "np.sum(x.clip(-0.6, 1.0).flatten() ** 3)",
    "x.transpose((1, 0)).reshape(-1)[1] * x.sum(axis=0, keepdims=True).prod()",
    "x.dot(x.T).trace() + x.std(axis=1).sum() + x.var()",
    "np.sum(x[None].squeeze(0).cumsum(axis=1) * x.repeat(1, axis=0))",
    "x.astype(np.float64).max(0).dot(x.swapaxes(0, 1).min(1))",
]


@pytest.mark.parametrize("expression", METHOD_PROGRAMS)
def test_methods_in_both_halves(expression, numpy_behavior):
    x = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]])
    f = halves.function(expression, "x", [x])
    halves.check(f, [x], what=expression)


def test_promoted_operators_differentiate_each_source_in_its_dtype(numpy_behavior):
    v = tf.Variable(np.array([0.5, -1.5], np.float32))
    w = tf.Variable(np.array([2.0, 3.0]))
    i = tf.constant([1, 2])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum((v * w) ** 2 + v * i + w / i)
    gv, gw = tape.gradient(y, [v, w])
    assert (y.dtype, gv.dtype, gw.dtype) == (tf.float64, tf.float32, tf.float64)
    vv, wv = v.numpy().astype(np.float64), w.numpy()
    assert_close(gv.numpy(), 2 * vv * wv ** 2 + np.array([1.0, 2.0]), 1e-6, 1e-6)
    assert_close(gw.numpy(), 2 * wv * vv ** 2 + 1 / np.array([1.0, 2.0]), 1e-12, 1e-12)


def _stacked_loss(a, b):
    s = tnp.array([a, b * 3.0, a * b])
    return tnp.sum(s * tnp.array([1.0, 2.0, 3.0])) + tnp.mean([a, b]) ** 2 + tnp.r_[a, b, 1.0][1] * tnp.c_[[a, b]][0, 0]


def test_lists_of_tensors_are_stacked_on_the_tape():
    a0, b0 = 2.0, -1.0
    a, b = tf.constant(a0, tf.float64), tf.constant(b0, tf.float64)
    with tf.GradientTape() as outer:
        outer.watch([a, b])
        with tf.GradientTape() as tape:
            tape.watch([a, b])
            y = _stacked_loss(a, b)
        ga, gb = tape.gradient(y, [a, b])
    haa = outer.gradient(ga, a)
    plain = lambda p: float(_stacked_loss(tf.constant(p[0], tf.float64), tf.constant(p[1], tf.float64)))  # noqa: E731
    want = numeric_grad(plain, np.array([a0, b0]))
    assert_close([float(ga), float(gb)], want, 1e-6, 1e-6)
    h = 1e-4
    want_aa = (plain([a0 + h, b0]) - 2 * plain([a0, b0]) + plain([a0 - h, b0])) / h ** 2
    assert_close(float(haa), want_aa, 1e-4, 1e-4)
    with tf.autodiff.ForwardAccumulator([a, b], [tf.constant(1.0, tf.float64), tf.constant(0.5, tf.float64)]) as acc:
        y = _stacked_loss(a, b)
    assert_close(float(acc.jvp(y)), want[0] + 0.5 * want[1], 1e-6, 1e-6)


def test_plain_values_become_tensors_with_numpys_dtypes():
    assert tnp.asarray([1.0, 2.0]).dtype == tf.float64
    assert tnp.arange(3).dtype == tf.int64
    assert tnp.array([tf.constant(1.0), tf.constant(2.0)]).dtype == tf.float32
    assert isinstance(tf.constant(1.0), tnp.ndarray)
    with pytest.raises(AttributeError):
        tnp.no_such_function
