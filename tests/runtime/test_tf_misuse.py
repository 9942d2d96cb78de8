"""Misuse TensorFlow 2.21 refuses is refused here too: the same exception type (TF's type, observed
with tensorflow-cpu 2.21.0; the tf_corpus misuse_*/tape_* programs compare the type names with TF's
recorded output), and a message that says what to do instead."""

import numpy as np
import pytest

import runtime as tf
from runtime import errors


def _tape_on_square(persistent=False):
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape(persistent=persistent) as tape:
        y = x * x
    return tape, x, y


# --- the tape ---------------------------------------------------------------------------------

def test_stop_recording_outside_the_tapes_context_is_a_runtime_error():
    tape = tf.GradientTape()
    with pytest.raises(RuntimeError, match=r"inside the tape's `with"):
        with tape.stop_recording():
            pass
    tape, _, _ = _tape_on_square()  # after the block, too
    with pytest.raises(RuntimeError, match="not recording"):
        with tape.stop_recording():
            pass


def test_stop_recording_inside_the_context_still_works():
    x = tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        with tape.stop_recording():
            z = x * x
        y = x * 3.0
    assert tape.gradient(z, x) is None
    assert float(tape.gradient(y, x)) == 3.0


def test_output_gradients_of_another_dtype_is_invalid_argument():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    with pytest.raises(errors.InvalidArgumentError, match=r"tf\.cast"):
        tape.gradient(y, x, output_gradients=tf.constant([1, 1]))


def test_output_gradients_of_float64_for_a_float32_target_is_refused():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    with pytest.raises(errors.InvalidArgumentError, match="float64 but its target is float32"):
        tape.gradient(y, x, output_gradients=tf.constant([1.0, 1.0], tf.float64))


def test_output_gradients_structure_not_matching_the_target_is_a_value_error():
    # TF 2.21 crashes the interpreter (segmentation fault) here; a ValueError says what to do
    x = tf.constant(1.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y1, y2 = x * 2.0, x * 3.0
    with pytest.raises(ValueError, match="one gradient"):
        tape.gradient([y1, y2], x, output_gradients=[tf.constant(1.0)])
    with pytest.raises(ValueError, match="one gradient"):
        tape.gradient(y1, x, output_gradients=[tf.constant(1.0), tf.constant(2.0)])


def test_output_gradients_with_a_none_entry_is_a_value_error():
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y1, y2 = x * 2.0, x * 3.0
    with pytest.raises(ValueError, match=r"tf\.ones_like\(target\)"):
        tape.gradient([y1, y2], x, output_gradients=[None, tf.constant(1.0)])


def test_output_gradients_of_the_wrong_shape_is_a_value_error():
    tape, x, y = _tape_on_square()
    with pytest.raises(ValueError, match="must match"):
        tape.gradient(y, x, output_gradients=tf.constant([1.0, 2.0, 3.0]))


def test_second_gradient_on_a_non_persistent_tape_is_a_runtime_error():
    tape, x, y = _tape_on_square()
    tape.gradient(y, x)
    with pytest.raises(RuntimeError, match=r"persistent=True"):
        tape.gradient(y, x)
    with pytest.raises(RuntimeError, match=r"persistent=True"):
        tape.jacobian(y, x)


def test_unconnected_gradients_with_an_unknown_string_is_a_value_error():
    tape, x, y = _tape_on_square(persistent=True)
    for bad in ("zeros", "None", "ZERO", 0):
        with pytest.raises(ValueError, match=r"UnconnectedGradients\.ZERO \('zero'\)"):
            tape.gradient(y, x, unconnected_gradients=bad)
    assert tape.gradient(y, x, unconnected_gradients="zero") is not None


def test_watch_of_a_python_number_is_a_value_error():
    with tf.GradientTape() as tape:
        with pytest.raises(ValueError, match=r"tape\.watch\(tf\.constant\(3\.0\)\)"):
            tape.watch(3.0)
        with pytest.raises(ValueError, match="not tf.Tensor"):
            tape.watch([tf.constant(1.0), np.float32(2.0)])


def test_reentering_an_active_tape_is_a_value_error():
    tape = tf.GradientTape()
    with tape:
        with pytest.raises(ValueError, match=r"new tf\.GradientTape\(\)"):
            with tape:
                pass


def test_a_target_that_is_not_a_tensor_is_a_type_error():
    tape, x, _ = _tape_on_square()
    with pytest.raises(TypeError, match="target must be a tf.Tensor"):
        tape.gradient(None, x)


def test_unwatched_source_used_by_a_recorded_op_gets_none():
    # not a refusal, but the same rule TF applies: only watched sources get gradients
    x, c = tf.constant(2.0), tf.constant(5.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * c
    assert tape.gradient(y, c) is None
    assert float(tape.gradient(y, x)) == 5.0
    assert float(tape.gradient(y, y)) == 1.0  # a target is its own source


# --- variables --------------------------------------------------------------------------------

def test_assign_of_the_wrong_shape_is_a_value_error():
    v = tf.Variable([1.0, 2.0], name="w")
    with pytest.raises(ValueError, match=r"Assign a value of shape \(2,\)"):
        v.assign([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="Shape mismatch"):
        v.assign_add([[1.0, 2.0]])
    assert v.numpy().tolist() == [1.0, 2.0]


@pytest.mark.parametrize("method", ["assign", "assign_add", "assign_sub"])
def test_assign_of_a_tensor_of_another_dtype_is_a_value_error(method):
    v = tf.Variable([1.0, 2.0])
    with pytest.raises(ValueError, match=rf"v\.{method}\(tf\.cast\(value, tf\.float32\)\)"):
        getattr(v, method)(tf.constant([1, 2]))
    with pytest.raises(ValueError, match="dtype float64 to variable"):
        getattr(v, method)(tf.constant([1.0, 2.0], tf.float64))
    assert v.numpy().tolist() == [1.0, 2.0]
    getattr(v, method)([1, 2])  # Python values are converted, as in TF
    getattr(v, method)(tf.constant([1.0, 1.0]))


def test_assign_of_a_fractional_float_to_an_int_variable_is_a_type_error():
    v = tf.Variable(1)
    with pytest.raises(TypeError, match="EagerTensor of dtype int32: give values of that dtype"):
        v.assign(2.5)
    v.assign(3.0)  # an integral float converts
    assert int(v) == 3


def test_variable_without_initial_value_is_a_value_error():
    with pytest.raises(ValueError, match=r"tf\.Variable\(0\.0\)"):
        tf.Variable(None)


# --- ops and conversion -----------------------------------------------------------------------

@pytest.mark.parametrize("a, b", [
    (tf.constant(1.0), tf.constant(1)),
    (tf.constant([1.0]), tf.constant([1], tf.int64)),
    (tf.constant(1.0, tf.float64), tf.constant(2.0)),
])
def test_mixing_dtypes_is_invalid_argument(a, b):
    with pytest.raises(errors.InvalidArgumentError, match=r"tf\.cast"):
        a + b
    with pytest.raises(errors.InvalidArgumentError, match=r"tf\.cast"):
        tf.multiply(a, b)


def test_int_tensor_and_fractional_python_float_is_invalid_argument():
    with pytest.raises(errors.InvalidArgumentError, match=r"tf\.cast\(x, tf\.float32\)"):
        tf.constant([1, 2]) + 0.5
    assert (tf.constant([1, 2]) + 1).numpy().tolist() == [2, 3]


def test_incompatible_shapes_are_invalid_argument():
    with pytest.raises(errors.InvalidArgumentError, match=r"input shapes: \(2,\), \(3,\).*tf\.reshape"):
        tf.constant([1.0, 2.0]) + tf.constant([1.0, 2.0, 3.0])
    with pytest.raises(errors.InvalidArgumentError, match="Matrix size-incompatible"):
        tf.matmul(tf.ones([2, 3]), tf.ones([2, 3]))
    with pytest.raises(errors.InvalidArgumentError, match="make the shapes agree"):
        tf.reshape(tf.range(6), [4, -1])


def test_index_out_of_range_is_invalid_argument():
    x = tf.constant([1, 2, 3])
    with pytest.raises(errors.InvalidArgumentError, match="indices within the tensor's shape"):
        x[5]
    with pytest.raises(errors.InvalidArgumentError, match=r"takes indices in that range"):
        tf.gather(x, [4])


def test_constant_of_values_that_do_not_fit_the_dtype_is_a_type_error():
    with pytest.raises(TypeError, match="give values of that dtype"):
        tf.constant(1.5, dtype=tf.int32)
    with pytest.raises(TypeError, match="dtype bool"):
        tf.constant([1, 0], dtype=tf.bool)


def test_convert_to_tensor_of_a_tensor_with_another_dtype_is_a_value_error():
    with pytest.raises(ValueError, match=r"tf\.cast\(t, tf\.float64\)"):
        tf.convert_to_tensor(tf.constant(1.0), dtype=tf.float64)


def test_tensors_are_immutable_unhashable_and_ambiguous_as_booleans():
    t = tf.constant([1.0, 2.0])
    with pytest.raises(TypeError, match="tensors are immutable"):
        t[0] = 5.0
    with pytest.raises(TypeError, match=r"tensor\.ref\(\)"):
        {t: 1}
    with pytest.raises(ValueError, match=r"tf\.reduce_any"):
        bool(t)
    with pytest.raises(TypeError, match=r"tf\.size"):
        len(tf.constant(1.0))
    assert bool(tf.constant([3])) and not bool(tf.constant(0.0))
