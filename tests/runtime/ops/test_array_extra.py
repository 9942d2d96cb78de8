"""sort, repeat, roll, scatter_nd and friends, and the composed tf.nn additions: values against
numpy, gradients against central finite differences in float64 (tests.runtime.ops.tfcheck.py)."""

import numpy as np
import pytest

import runtime as tf
from tests.runtime.ops.tfcheck import check_gradients

RNG = np.random.default_rng(11)


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("direction", ["ASCENDING", "DESCENDING"])
def test_sort_values_indices_and_gradients(axis, direction):
    x = RNG.normal(size=(3, 4))
    want = np.sort(x, axis=axis)
    if direction == "DESCENDING":
        want = np.flip(want, axis)
    np.testing.assert_array_equal(tf.sort(tf.constant(x), axis=axis, direction=direction).numpy(), want)
    idx = tf.argsort(tf.constant(x), axis=axis, direction=direction).numpy()
    np.testing.assert_array_equal(np.take_along_axis(x, idx, axis), want)
    check_gradients(lambda t: tf.sort(t, axis=axis, direction=direction), x)


def test_sort_ties_keep_their_order_in_both_directions():
    x = tf.constant([2, 1, 2, 1, 2])
    assert tf.argsort(x).numpy().tolist() == [1, 3, 0, 2, 4]
    assert tf.argsort(x, direction="DESCENDING").numpy().tolist() == [0, 2, 4, 1, 3]
    with pytest.raises(ValueError, match="ASCENDING"):
        tf.sort(x, direction="up")


def test_repeat_and_roll_match_numpy_with_gradients():
    x = RNG.normal(size=(3, 2))
    np.testing.assert_array_equal(tf.repeat(tf.constant(x), [1, 0, 2], axis=0).numpy(),
                                  np.repeat(x, [1, 0, 2], axis=0))
    np.testing.assert_array_equal(tf.repeat(tf.constant(x), 2).numpy(), np.repeat(x, 2))
    np.testing.assert_array_equal(tf.roll(tf.constant(x), [1, 1], [0, 1]).numpy(),
                                  np.roll(x, (1, 1), (0, 1)))
    check_gradients(lambda t: tf.repeat(t, [2, 1, 3], axis=0), x)
    check_gradients(lambda t: tf.roll(t, -1, 0), x)


def test_sequence_mask():
    assert tf.sequence_mask([1, 3]).numpy().tolist() == [[True, False, False], [True, True, True]]
    assert tf.sequence_mask([2], 4, dtype=tf.int32).numpy().tolist() == [[1, 1, 0, 0]]


def test_scatter_nd_adds_duplicates_and_has_the_gather_gradient():
    idx = np.array([[1], [3], [1]])
    u = RNG.normal(size=(3, 2))
    want = np.zeros((4, 2))
    np.add.at(want, idx[:, 0], u)
    np.testing.assert_allclose(tf.scatter_nd(idx, tf.constant(u), [4, 2]).numpy(), want, rtol=1e-12)
    check_gradients(lambda t: tf.scatter_nd(idx, t, [4, 2]), u)


def test_tensor_scatter_nd_update_and_add_with_gradients():
    t0 = RNG.normal(size=(3, 3))
    idx = np.array([[0, 2], [2, 1]])
    u = np.array([5.0, -4.0])
    want = t0.copy()
    want[0, 2], want[2, 1] = 5.0, -4.0
    np.testing.assert_array_equal(tf.tensor_scatter_nd_update(tf.constant(t0), idx, tf.constant(u)).numpy(), want)
    added = t0.copy()
    added[0, 2] += 5.0
    added[2, 1] -= 4.0
    np.testing.assert_allclose(tf.tensor_scatter_nd_add(tf.constant(t0), idx, tf.constant(u)).numpy(),
                               added, rtol=1e-12)
    check_gradients(lambda a, b: tf.tensor_scatter_nd_update(a, idx, b), t0, u)
    check_gradients(lambda a, b: tf.tensor_scatter_nd_add(a, idx, b), t0, u)
    with pytest.raises(tf.errors.InvalidArgumentError, match="within the shape"):
        tf.tensor_scatter_nd_update(tf.constant(t0), [[3, 0]], [1.0])


def test_batch_normalization_matches_the_formula_with_gradients():
    x, mean, var = RNG.normal(size=(4, 3)), RNG.normal(size=3), RNG.uniform(0.5, 2, size=3)
    off, sc = RNG.normal(size=3), RNG.normal(size=3)
    got = tf.nn.batch_normalization(tf.constant(x), mean, var, off, sc, 1e-3).numpy()
    np.testing.assert_allclose(got, (x - mean) * sc / np.sqrt(var + 1e-3) + off, rtol=1e-12)
    check_gradients(lambda a, m, v, o, s: tf.nn.batch_normalization(a, m, v, o, s, 1e-3), x, mean, var, off, sc)


def test_weighted_cross_entropy_matches_the_definition_with_gradients():
    x, z = RNG.normal(size=5) * 3, RNG.uniform(size=5)
    sig = 1 / (1 + np.exp(-x))
    want = -(2.5 * z * np.log(sig) + (1 - z) * np.log(1 - sig))
    got = tf.nn.weighted_cross_entropy_with_logits(tf.constant(z), tf.constant(x), 2.5).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-10)
    check_gradients(lambda a, b: tf.nn.weighted_cross_entropy_with_logits(b, a, 2.5), x, z)


def test_embedding_lookup_gives_indexed_slices_and_average_loss():
    emb = tf.Variable(np.arange(6.0).reshape(3, 2))
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.nn.embedding_lookup(emb, [2, 2, 0]))
    g = tape.gradient(loss, emb)
    assert isinstance(g, tf.IndexedSlices) and g.indices.numpy().tolist() == [2, 2, 0]
    assert float(tf.nn.compute_average_loss(tf.constant([1.0, 3.0]), global_batch_size=4)) == 1.0
