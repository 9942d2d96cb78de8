"""GradientTape semantics that TF programs rely on (see shared/TF-BEHAVIOUR.md)."""

import gc
import threading
import weakref

import numpy as np
import pytest

import runtime as tf
from tests.fd import assert_close, numeric_grad


def test_watch_constant_and_gradient_structure_follows_sources():
    x = tf.constant(3.0)
    y = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, y])
        z = x * x * y + x * y
    assert float(tape.gradient(z, x)) == 14.0
    as_list = tape.gradient(z, [x, y])
    assert isinstance(as_list, list) and [float(g) for g in as_list] == [14.0, 12.0]
    as_tuple = tape.gradient(z, (x, y))
    assert isinstance(as_tuple, tuple)
    as_dict = tape.gradient(z, {"b": y, "a": x})
    assert set(as_dict) == {"a", "b"} and float(as_dict["a"]) == 14.0 and float(as_dict["b"]) == 12.0
    nested = tape.gradient(z, [x, [y, {"k": x}]])
    assert float(nested[1][1]["k"]) == 14.0


def test_several_targets_are_summed():
    x = tf.Variable(5.0)
    with tf.GradientTape() as tape:
        z1 = 3 * x
        z2 = x ** 3
    assert float(tape.gradient([z1, z2], x)) == 78.0


def test_non_persistent_tape_refuses_second_gradient():
    x = tf.Variable(1.0)
    with tf.GradientTape() as tape:
        y = x * x
    tape.gradient(y, x)
    with pytest.raises(RuntimeError, match="non-persistent"):
        tape.gradient(y, x)


def test_unconnected_none_and_zero():
    x = tf.Variable(1.0)
    u = tf.Variable([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        y = x * 2.0
    assert tape.gradient(y, u) is None
    z = tape.gradient(y, u, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    assert z.numpy().tolist() == [0.0, 0.0] and z.dtype == tf.float32
    assert tape.gradient(y, u, unconnected_gradients="zero").shape == (2,)
    with pytest.raises(ValueError):
        tape.gradient(y, u, unconnected_gradients="zeros")


def test_integer_sources_give_none_but_are_watched():
    v = tf.Variable(7)
    f = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = v * 3
        z = f * 2.0
    assert any(w is v for w in tape.watched_variables())
    assert tape.gradient([y, z], [v, f])[0] is None


def test_watched_variables_in_creation_order():
    a = tf.Variable(1.0)
    b = tf.Variable(2.0)
    c = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = c * b * a
    watched = tape.watched_variables()
    assert isinstance(watched, tuple)
    assert [w is v for w, v in zip(watched, (a, b, c))] == [True] * 3


def test_watch_accessed_variables_false_and_trainable_false():
    v = tf.Variable(2.0)
    frozen = tf.Variable(2.0, trainable=False)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        y = v * v
    assert tape.gradient(y, v) is None
    with tf.GradientTape() as tape:
        y = frozen * frozen
    assert tape.gradient(y, frozen) is None
    with tf.GradientTape() as tape:
        tape.watch(frozen)
        y = frozen * frozen
    assert float(tape.gradient(y, frozen)) == 4.0


def test_ops_outside_context_and_stop_recording_and_reset_are_not_recorded():
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        with tape.stop_recording():
            z = y * x
        w = y * 3.0
    after = y * y
    assert float(tape.gradient(w, x)) == 12.0
    assert tape.gradient(z, x) is None
    assert tape.gradient(after, x) is None

    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
        tape.reset()
        tape.watch(x)
        y2 = x * 5.0
        total = y2 + y
    assert float(tape.gradient(total, x)) == 5.0


def test_stop_gradient():
    x = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = x * tf.stop_gradient(x * x)
    assert float(tape.gradient(y, x)) == 9.0


def test_nested_tapes_second_and_third_order():
    x = tf.Variable(1.5)
    with tf.GradientTape() as t3:
        with tf.GradientTape() as t2:
            with tf.GradientTape() as t1:
                y = x * x * x * x
            d1 = t1.gradient(y, x)
        d2 = t2.gradient(d1, x)
    d3 = t3.gradient(d2, x)
    assert np.isclose(float(d1), 4 * 1.5 ** 3)
    assert np.isclose(float(d2), 12 * 1.5 ** 2)
    assert np.isclose(float(d3), 24 * 1.5)


def test_persistent_tape_records_its_own_gradient_in_context(caplog):
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x ** 3
        dy = tape.gradient(y, x)
    assert "persistent" in caplog.text
    assert float(tape.gradient(dy, x)) == 12.0


def test_non_persistent_tape_stops_recording_when_asked_inside_context():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
        g = tape.gradient(y, x)
        more = g * x  # no longer recorded; asking again is an error anyway
    assert float(g) == 4.0 and float(more) == 8.0


def test_output_gradients_and_errors():
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
    g = tape.gradient(y, x, output_gradients=tf.constant([1.0, 0.0, 2.0]))
    assert g.numpy().tolist() == [2.0, 0.0, 12.0]
    with pytest.raises(ValueError, match="output_gradients"):
        tape.gradient(y, x, output_gradients=tf.constant([1.0, 2.0]))
    with pytest.raises(TypeError, match="target"):
        tape.gradient(3.0, x)
    with pytest.raises(TypeError, match="sources"):
        tape.gradient(y, [x, "x"])
    with pytest.raises(ValueError):
        tape.watch(3.0)


def test_tapes_are_thread_local():
    x = tf.constant(2.0)
    results = {}
    with tf.GradientTape() as tape:
        tape.watch(x)

        def other():
            results["y"] = x * x  # another thread: not recorded on this tape

        th = threading.Thread(target=other)
        th.start()
        th.join()
        mine = x * 3.0
    assert tape.gradient([results["y"], mine], x).numpy() == 3.0


def test_several_tapes_at_once():
    x = tf.constant(1.0)
    a = tf.GradientTape()
    b = tf.GradientTape()
    with a, b:
        a.watch(x)
        y = x * 4.0
        b.watch(x)
        z = x * 5.0
    assert float(a.gradient(y, x)) == 4.0 and float(b.gradient(z, x)) == 5.0
    assert b_none(y, x)


def b_none(y, x):
    t = tf.GradientTape()
    with t:
        pass
    return t.gradient(y, x) is None


def test_persistent_tape_releases_memory_when_deleted():
    x = tf.constant(np.ones(1000, np.float32))
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        big = x * 2.0
        y = big * big
    ref = weakref.ref(big)
    del big
    gc.collect()
    assert ref() is not None  # the tape keeps what the backward sweep needs
    tape.gradient(y, x)
    del tape, y
    gc.collect()
    assert ref() is None


def test_gradient_matches_finite_differences_through_broadcasting():
    rng = np.random.default_rng(1)
    a0 = rng.normal(size=(3, 1))
    b0 = rng.normal(size=(1, 4))

    def f(a, b):
        return (a * b + a / (1.5 + b * b) - b) ** 2

    a, b = tf.constant(a0), tf.constant(b0)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        y = f(a, b)
    ga, gb = tape.gradient(y, [a, b])
    assert ga.dtype == tf.float64 and ga.shape == (3, 1) and gb.shape == (1, 4)
    assert_close(ga.numpy(), numeric_grad(lambda v: f(v, b0), a0), what="d/da")
    assert_close(gb.numpy(), numeric_grad(lambda v: f(a0, v), b0), what="d/db")


def test_intermediate_tensor_as_source():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
        z = y * 3.0 + x
    gy, gx = tape.gradient(z, [y, x])
    assert float(gy) == 3.0 and float(gx) == 13.0


def test_gradient_of_source_itself_is_ones():
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
    assert tape.gradient(x, x).numpy().tolist() == [1.0, 1.0]


def test_variable_subclasses_are_watched_on_read():
    class MyVariable(tf.Variable):
        pass

    v = MyVariable(3.0)
    with tf.GradientTape() as tape:
        y = v * v
    assert any(w is v for w in tape.watched_variables())
    assert float(tape.gradient(y, v)) == 6.0


def test_unwatched_input_of_a_recorded_op_gets_none_as_in_tf():
    """TF 2.21 (checked with tensorflow-cpu): a tensor the tape never tracked gets None even when
    it is an input of an op the tape recorded; a target asked about itself still gets ones."""
    x = tf.constant([1.0, 2.0])
    w = tf.Variable(2.0)
    pre = tf.constant(2.0) * 3.0
    with tf.GradientTape(persistent=True) as tape:
        y = x * w
        q = pre * w
    assert tape.gradient(y, x) is None and tape.gradient(q, pre) is None
    gw, gx = tape.gradient(y, [w, x])
    assert float(gw) == 3.0 and gx is None
    assert tape.jacobian(y, x) is None
    assert tape.gradient(x, x).numpy().tolist() == [1.0, 1.0]
    z = tape.gradient(y, x, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    assert z.numpy().tolist() == [0.0, 0.0]


def test_jacobian_results_are_fresh_arrays_each_call():
    """jacobian keeps its one-hot cotangents between calls: a result (even the identity of a
    target asked about itself) must never share them, so writing into one changes no later result."""
    x = tf.constant([1.0, 2.0, 3.0])
    for _ in range(2):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = x * 2.0
        j_self, j_y = tape.jacobian(x, x).numpy(), tape.jacobian(y, x).numpy()
        np.testing.assert_array_equal(j_self, np.eye(3, dtype=np.float32))
        np.testing.assert_array_equal(j_y, 2 * np.eye(3, dtype=np.float32))
        j_self[0, 0] = 7.0                 # the caller's own array: writable
        j_y[1, 1] = 7.0
        with tf.GradientTape() as tape:
            tape.watch(x)
        np.testing.assert_array_equal(tape.jacobian(x, x).numpy(), np.eye(3, dtype=np.float32))


def test_jacobian_entries_below_the_smallest_normal_are_flushed_as_in_tf():
    """TF's kernels flush subnormal results to zero: d(x * c)/dx with a float32 c of 1e-39 is 0,
    and 1e-30 (a normal number) is kept."""
    x = tf.constant([1.0, 2.0])
    for c, want in ((1e-39, 0.0), (1e-30, np.float32(1e-30))):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * tf.constant(np.float32(c))
        j = tape.jacobian(y, x).numpy()
        np.testing.assert_array_equal(j, np.diag([want, want]).astype(np.float32))
