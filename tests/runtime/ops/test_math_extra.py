"""cumprod, the segment reductions, top_k and multiply_no_nan: values against plain numpy loops,
gradients against central finite differences in float64 (tests.runtime.ops.tfcheck.py)."""

import numpy as np
import pytest

import runtime as tf
from tests.runtime.ops.tfcheck import check_gradients

RNG = np.random.default_rng(7)


def _cumprod_loop(x, axis, exclusive, reverse):
    x = np.moveaxis(x, axis, 0)
    if reverse:
        x = x[::-1]
    out, acc = [], np.ones_like(x[0])
    for row in x:
        if exclusive:
            out.append(acc.copy())
            acc = acc * row
        else:
            acc = acc * row
            out.append(acc.copy())
    out = np.stack(out)
    if reverse:
        out = out[::-1]
    return np.moveaxis(out, 0, axis)


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("exclusive", [False, True])
@pytest.mark.parametrize("reverse", [False, True])
def test_cumprod_values_and_gradients(axis, exclusive, reverse):
    x = RNG.uniform(-2, 2, (3, 4))
    got = tf.math.cumprod(tf.constant(x), axis=axis, exclusive=exclusive, reverse=reverse)
    np.testing.assert_allclose(got.numpy(), _cumprod_loop(x, axis, exclusive, reverse), rtol=1e-12)
    check_gradients(lambda t: tf.math.cumprod(t, axis=axis, exclusive=exclusive, reverse=reverse), x)


def test_cumprod_gradient_through_a_zero():
    x = np.array([2.0, 0.0, 3.0, -1.5])
    check_gradients(lambda t: tf.math.cumprod(t), x)


def _segment_sum_loop(data, ids, n):
    out = np.zeros((n,) + data.shape[1:])
    for row, s in zip(data, ids):
        if s >= 0:
            out[s] += row
    return out


def test_unsorted_segment_sum_values_and_gradients():
    data = RNG.normal(size=(5, 2))
    ids = np.array([2, 0, 2, -1, 0])
    got = tf.math.unsorted_segment_sum(tf.constant(data), ids, num_segments=4)
    np.testing.assert_allclose(got.numpy(), _segment_sum_loop(data, ids, 4), rtol=1e-12)
    check_gradients(lambda t: tf.math.unsorted_segment_sum(t, ids, num_segments=4), data)


def test_segment_sum_and_mean():
    data = RNG.normal(size=(4, 3))
    ids = np.array([0, 0, 1, 3])
    np.testing.assert_allclose(tf.math.segment_sum(tf.constant(data), ids).numpy(),
                               _segment_sum_loop(data, ids, 4), rtol=1e-12)
    counts = np.maximum(np.bincount(ids, minlength=4), 1)[:, None]
    np.testing.assert_allclose(tf.math.segment_mean(tf.constant(data), ids).numpy(),
                               _segment_sum_loop(data, ids, 4) / counts, rtol=1e-12)
    check_gradients(lambda t: tf.math.segment_mean(t, ids), data)


def test_segment_max_min_values_empty_segments_and_gradients():
    data = np.array([1.0, 5.0, 3.0, -2.0])
    ids = np.array([0, 0, 2, 2])
    mx = tf.math.unsorted_segment_max(tf.constant(data), ids, 3).numpy()
    assert mx[0] == 5.0 and mx[2] == 3.0 and mx[1] == np.finfo(np.float64).min
    mn = tf.math.unsorted_segment_min(tf.constant(data), ids, 3).numpy()
    assert mn[0] == 1.0 and mn[2] == -2.0 and mn[1] == np.finfo(np.float64).max
    full = np.array([0, 0, 1, 1])  # no empty segment: its huge fill value would swamp the differences
    check_gradients(lambda t: tf.math.segment_max(t, full), data)
    check_gradients(lambda t: tf.math.segment_min(t, full), data)


def test_segment_ids_out_of_range_are_refused_with_the_fix():
    with pytest.raises(tf.errors.InvalidArgumentError, match="num_segments"):
        tf.math.unsorted_segment_sum(tf.constant([1.0, 2.0]), [0, 5], num_segments=2)


def test_top_k_values_indices_ties_and_gradients():
    x = np.array([[1.0, 3.0, 3.0, 2.0, 5.0], [0.5, 0.5, 0.5, -1.0, 4.0]])
    r = tf.math.top_k(tf.constant(x), k=3)
    assert r.indices.numpy().tolist() == [[4, 1, 2], [4, 0, 1]]  # ties: lower index first
    np.testing.assert_array_equal(r.values.numpy(), np.take_along_axis(x, r.indices.numpy(), -1))
    assert r.indices.dtype == tf.int32
    y = RNG.normal(size=(2, 6))
    check_gradients(lambda t: tf.math.top_k(t, k=2).values, y)
    check_gradients(lambda t: tf.nn.top_k(t[0], k=4).values, y)


def test_multiply_no_nan_is_zero_where_y_is_zero_and_has_the_product_gradient():
    x = tf.constant([np.inf, np.nan, 2.0])
    y = tf.constant([0.0, 0.0, 3.0])
    assert tf.math.multiply_no_nan(x, y).numpy().tolist() == [0.0, 0.0, 6.0]
    check_gradients(lambda a, b: tf.math.multiply_no_nan(a, b),
                    np.array([1.5, -2.0, 0.5]), np.array([2.0, 0.7, -1.0]))


def test_truncating_division_rounds_toward_zero():
    a, b = tf.constant([7, -7, 7, -7]), tf.constant([2, 2, -2, -2])
    assert tf.truncatediv(a, b).numpy().tolist() == [3, -3, -3, 3]
    assert tf.truncatemod(a, b).numpy().tolist() == [1, -1, 1, -1]
