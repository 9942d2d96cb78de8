"""tf.data.Dataset basics, as TensorFlow's custom-training guides use them."""

import numpy as np
import pytest

import runtime as tf
from runtime import errors

X = np.arange(14, dtype=np.float32).reshape(7, 2)
Y = np.arange(7)


def _values(ds):
    return [tuple(np.asarray(t.numpy()).tolist() for t in e) if isinstance(e, tuple)
            else np.asarray(e.numpy()).tolist() for e in ds]


def test_from_tensor_slices_of_a_tuple_yields_tensors_row_by_row():
    ds = tf.data.Dataset.from_tensor_slices((X, Y))
    rows = list(ds)
    assert len(rows) == 7 == len(ds)
    for i, (a, b) in enumerate(rows):
        assert isinstance(a, tf.Tensor) and isinstance(b, tf.Tensor)
        assert a.dtype == tf.float32 and b.dtype == tf.int64 and a.shape == (2,)
        assert a.numpy().tolist() == X[i].tolist() and int(b) == Y[i]


def test_python_lists_take_tf_default_dtypes_and_dicts_stay_dicts():
    ds = tf.data.Dataset.from_tensor_slices({"f": [1.5, 2.5], "i": [1, 2]})
    first = next(iter(ds))
    assert set(first) == {"f", "i"}
    assert first["f"].dtype == tf.float32 and first["i"].dtype == tf.int32
    assert [e["i"].numpy() for e in ds] == [1, 2]
    single = list(tf.data.Dataset.from_tensor_slices([[1.0, 2.0], [3.0, 4.0]]))
    assert [e.numpy().tolist() for e in single] == [[1.0, 2.0], [3.0, 4.0]]


def test_mismatched_lengths_and_scalars_are_refused():
    with pytest.raises(ValueError, match="not compatible"):
        tf.data.Dataset.from_tensor_slices((X, Y[:3]))
    with pytest.raises(ValueError, match="from_tensors"):
        tf.data.Dataset.from_tensor_slices(3.0)


def test_batch_keeps_or_drops_the_remainder():
    kept = list(tf.data.Dataset.from_tensor_slices((X, Y)).batch(3))
    assert [b.shape for b, _ in kept] == [(3, 2), (3, 2), (1, 2)]
    assert np.concatenate([y.numpy() for _, y in kept]).tolist() == Y.tolist()
    dropped = tf.data.Dataset.from_tensor_slices((X, Y)).batch(3, drop_remainder=True)
    assert [y.numpy().tolist() for _, y in dropped] == [[0, 1, 2], [3, 4, 5]]
    assert len(dropped) == 2 and len(tf.data.Dataset.range(7).batch(3)) == 3
    assert "shape=(3, 2)" in repr(dropped) and "shape=(None, 2)" in repr(
        tf.data.Dataset.from_tensor_slices((X, Y)).batch(3))


def test_batch_of_ragged_elements_says_which():
    ds = tf.data.Dataset.from_tensor_slices([1, 2, 3]).map(lambda v: tf.fill([v], 1.0)).batch(2)
    with pytest.raises(errors.InvalidArgumentError, match="Cannot add tensor to the batch"):
        list(ds)


def _ints(ds):
    return [int(v) for v in ds]


# Orders printed by TensorFlow 2.21 (tensorflow-cpu) for the same programs.
TF_ORDERS = {
    "range(10).shuffle(10, seed=1, reshuffle=False)": [7, 9, 3, 6, 5, 1, 8, 4, 0, 2],
    "range(10).shuffle(10, seed=1) epoch 1": [0, 9, 5, 1, 2, 7, 3, 8, 6, 4],
    "range(10).shuffle(10, seed=1) epoch 2": [8, 9, 7, 5, 4, 6, 2, 1, 0, 3],
    "range(20).shuffle(5, seed=3, reshuffle=False)":
        [2, 4, 0, 3, 6, 1, 7, 9, 8, 11, 10, 15, 16, 17, 18, 19, 13, 12, 5, 14],
    "range(20).shuffle(5, seed=3)":
        [4, 1, 0, 2, 7, 8, 10, 6, 9, 12, 5, 3, 15, 13, 17, 16, 14, 11, 18, 19],
    "range(6).shuffle(4, seed=7).repeat(2)": [0, 4, 2, 3, 5, 1, 1, 3, 0, 2, 4, 5],
    "set_seed(5); range(10).shuffle(10)": [7, 5, 4, 1, 0, 9, 6, 3, 8, 2],
    "set_seed(5); ...; a second range(10).shuffle(10)": [1, 7, 4, 2, 3, 0, 8, 9, 5, 6],
    "set_seed(5); range(10).shuffle(10, seed=2**40 + 3)": [5, 6, 8, 2, 3, 1, 4, 7, 0, 9],
    "set_seed(5); range(10).shuffle(10, seed=0)": [6, 2, 5, 1, 7, 0, 4, 3, 8, 9],
    "set_seed(0); range(10).shuffle(10, seed=0)": [4, 9, 1, 0, 7, 3, 5, 2, 8, 6],
}


def test_seeded_shuffle_gives_tensorflows_order():
    r = tf.data.Dataset.range
    assert _ints(r(10).shuffle(10, seed=1, reshuffle_each_iteration=False)) == \
        TF_ORDERS["range(10).shuffle(10, seed=1, reshuffle=False)"]
    d = r(10).shuffle(10, seed=1)
    assert _ints(d) == TF_ORDERS["range(10).shuffle(10, seed=1) epoch 1"]
    assert _ints(d) == TF_ORDERS["range(10).shuffle(10, seed=1) epoch 2"]
    assert _ints(r(20).shuffle(5, seed=3, reshuffle_each_iteration=False)) == \
        TF_ORDERS["range(20).shuffle(5, seed=3, reshuffle=False)"]
    assert _ints(r(20).shuffle(5, seed=3)) == TF_ORDERS["range(20).shuffle(5, seed=3)"]
    assert _ints(r(6).shuffle(4, seed=7).repeat(2)) == TF_ORDERS["range(6).shuffle(4, seed=7).repeat(2)"]


def test_global_seed_shuffle_gives_tensorflows_order():
    r = tf.data.Dataset.range
    try:
        tf.random.set_seed(5)
        assert _ints(r(10).shuffle(10)) == TF_ORDERS["set_seed(5); range(10).shuffle(10)"]
        assert _ints(r(10).shuffle(10)) == TF_ORDERS["set_seed(5); ...; a second range(10).shuffle(10)"]
        tf.random.set_seed(5)
        assert _ints(r(10).shuffle(10)) == TF_ORDERS["set_seed(5); range(10).shuffle(10)"]
        assert _ints(r(10).shuffle(10, seed=2 ** 40 + 3)) == \
            TF_ORDERS["set_seed(5); range(10).shuffle(10, seed=2**40 + 3)"]
        assert _ints(r(10).shuffle(10, seed=0)) == TF_ORDERS["set_seed(5); range(10).shuffle(10, seed=0)"]
        tf.random.set_seed(0)
        assert _ints(r(10).shuffle(10, seed=0)) == TF_ORDERS["set_seed(0); range(10).shuffle(10, seed=0)"]
    finally:
        tf.random.set_seed(None)


def test_unseeded_shuffle_is_a_permutation_that_changes_each_epoch():
    d = tf.data.Dataset.range(50).shuffle(50)
    e1, e2 = _ints(d), _ints(d)
    assert sorted(e1) == sorted(e2) == list(range(50)) and e1 != e2


def test_shuffle_buffer_bounds_how_far_an_element_moves_forward():
    """With a buffer of b, output position i holds an input element < i + b (TF's algorithm)."""
    out = _ints(tf.data.Dataset.range(100).shuffle(4, seed=1))
    assert sorted(out) == list(range(100)) and all(v < i + 4 for i, v in enumerate(out))


def test_map_unpacks_tuples_and_passes_dicts_whole():
    ds = tf.data.Dataset.from_tensor_slices((X, Y)).map(lambda x, y: (x * 2.0, y + 1))
    assert _values(ds.take(2)) == [([0.0, 2.0], 1), ([4.0, 6.0], 2)]
    d = tf.data.Dataset.from_tensor_slices({"a": [1.0, 2.0]}).map(lambda e: e["a"] * 3.0)
    assert [float(v) for v in d] == [3.0, 6.0]
    listed = tf.data.Dataset.range(2).map(lambda v: [v, v * 2])
    assert [tuple(int(t) for t in e) for e in listed] == [(0, 0), (1, 2)]


def test_repeat_take_skip_zip_filter_enumerate_concatenate():
    r = tf.data.Dataset.range(3)
    assert [int(v) for v in r.repeat(2)] == [0, 1, 2, 0, 1, 2]
    assert [int(v) for v in r.repeat().take(7)] == [0, 1, 2, 0, 1, 2, 0]
    assert int(r.repeat().cardinality()) == tf.data.INFINITE_CARDINALITY
    with pytest.raises(TypeError, match="infinite"):
        len(r.repeat())
    assert [int(v) for v in r.skip(1)] == [1, 2] and [int(v) for v in r.take(-1)] == [0, 1, 2]
    z = tf.data.Dataset.zip((r, tf.data.Dataset.range(10, 15)))
    assert [(int(a), int(b)) for a, b in z] == [(0, 10), (1, 11), (2, 12)] and len(z) == 3
    assert [int(v) for v in tf.data.Dataset.zip(r)] == [0, 1, 2]  # TF 2.21 takes one dataset too
    zd = tf.data.Dataset.zip({"a": r, "b": r.skip(1)})
    assert [(int(e["a"]), int(e["b"])) for e in zd] == [(0, 1), (1, 2)]
    z2 = tf.data.Dataset.zip(r, r.map(lambda v: v * 10))
    assert [(int(a), int(b)) for a, b in z2] == [(0, 0), (1, 10), (2, 20)]
    assert [int(v) for v in tf.data.Dataset.range(10).filter(lambda v: v % 3 == 0)] == [0, 3, 6, 9]
    assert [(int(i), int(v)) for i, v in r.enumerate(5)] == [(5, 0), (6, 1), (7, 2)]
    assert [int(v) for v in r.concatenate(r)] == [0, 1, 2, 0, 1, 2]


def test_prefetch_cache_and_autotune_change_nothing():
    base = tf.data.Dataset.from_tensor_slices((X, Y)).batch(2)
    same = base.cache().prefetch(tf.data.AUTOTUNE).prefetch(buffer_size=tf.data.experimental.AUTOTUNE)
    assert _values(same) == _values(base)
    mapped = base.map(lambda x, y: (x, y), num_parallel_calls=tf.data.AUTOTUNE)
    assert _values(mapped) == _values(base)
    assert tf.data.AUTOTUNE == -1


def test_iterator_get_next_and_as_numpy_iterator():
    it = iter(tf.data.Dataset.range(2))
    assert int(it.get_next()) == 0 and int(next(it)) == 1
    with pytest.raises(StopIteration):
        next(it)
    got = list(tf.data.Dataset.from_tensor_slices({"a": [1, 2]}).as_numpy_iterator())
    assert got == [{"a": 1}, {"a": 2}] and isinstance(got[0]["a"], np.integer)


def test_reduce_folds_the_elements():
    total = tf.data.Dataset.range(5).reduce(np.int64(0), lambda s, v: s + v)
    assert int(total) == 10


def test_custom_training_loop_over_a_dataset_fits_a_line():
    """The pattern of TF's 'writing a training loop from scratch' guide."""
    rng = np.random.default_rng(0)
    xs = rng.uniform(-1, 1, (64, 1)).astype(np.float32)
    ys = 3.0 * xs + 0.5
    w, b = tf.Variable([[0.0]]), tf.Variable([0.0])
    opt = tf.keras.optimizers.SGD(learning_rate=0.3)
    ds = tf.data.Dataset.from_tensor_slices((xs, ys)).shuffle(64, seed=0).batch(16).prefetch(1)
    for epoch in range(30):
        for step, (xb, yb) in enumerate(ds):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(tf.matmul(xb, w) + b - yb))
            grads = tape.gradient(loss, [w, b])
            opt.apply_gradients(zip(grads, [w, b]))
    assert abs(float(w[0, 0]) - 3.0) < 1e-2 and abs(float(b[0]) - 0.5) < 1e-2
