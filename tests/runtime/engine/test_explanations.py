"""tf.debugging.enable_gradient_explanations(): one warning per None gradient, with its cause and line.

Each test marks the line the explanation must point at with a ``# <- here`` comment and finds its
number by reading this file, so the expected line is not copied from our own output.
"""

import inspect
import math
import warnings

import numpy as np
import pytest

import runtime as tf
from runtime.debugging import GradientExplanationWarning


def _line(fn, marker="# <- here"):
    """The absolute line number of the line in ``fn`` that carries ``marker``."""
    lines, start = inspect.getsourcelines(fn)
    hits = [start + i for i, text in enumerate(lines) if marker in text]
    assert len(hits) == 1, hits
    return hits[0]


@pytest.fixture
def explained():
    tf.debugging.enable_gradient_explanations()
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            yield caught
    finally:
        tf.debugging.disable_gradient_explanations()


def _only(caught):
    ours = [w for w in caught if issubclass(w.category, GradientExplanationWarning)]
    assert len(ours) == 1, [str(w.message) for w in ours]
    w = ours[0]
    assert w.filename == __file__
    return w, str(w.message)


def _check(caught, fn, cause, name):
    w, text = _only(caught)
    assert w.lineno == _line(fn), text
    assert cause in text, text
    assert f"`{name}`" in text, text
    assert f"{__file__}:{_line(fn)}" in text, text
    return text


def test_warning_class_is_a_user_warning_exported_under_debugging():
    assert issubclass(tf.debugging.GradientExplanationWarning, UserWarning)
    assert not tf.debugging.gradient_explanations_enabled()


def test_not_watched(explained):
    def run():
        x = tf.constant([1.0, 2.0])
        with tf.GradientTape() as tape:
            y = x * x  # <- here
        return tape.gradient(y, x)

    assert run() is None
    text = _check(explained, run, "it was not watched", "x")
    assert "tape.watch(x)" in text and "tf.Variable" in text
    assert "shape=(2,)" in text and "dtype=float32" in text


def test_not_watched_next_to_a_watched_variable(explained):
    def run():
        x = tf.constant([1.0, 2.0])
        w = tf.Variable(2.0)
        with tf.GradientTape() as tape:
            y = x * w  # <- here
        return tape.gradient(y, [w, x])

    gw, gx = run()
    assert gw is not None and gx is None
    _check(explained, run, "it was not watched", "x")


def test_untrainable_variable(explained):
    def run():
        v = tf.Variable(3.0, trainable=False, name="frozen")
        with tf.GradientTape() as tape:
            y = v * 2.0  # <- here
        return tape.gradient(y, v)

    assert run() is None
    text = _check(explained, run, "trainable=False", "v")
    assert "'frozen:0'" in text and "tape.watch(v)" in text


def test_watch_accessed_variables_false(explained):
    def run():
        v = tf.Variable(3.0)
        with tf.GradientTape(watch_accessed_variables=False) as tape:
            y = v * 2.0  # <- here
        return tape.gradient(y, v)

    assert run() is None
    _check(explained, run, "watch_accessed_variables=False", "v")


@pytest.mark.parametrize("how, leave", [
    ("numpy", lambda a: tf.constant(a.numpy()) * 2.0),
    ("float", lambda a: 2.0 * tf.constant(float(a))),
    ("float operand", lambda a: tf.constant(1.0) * float(a)),
    ("numpy operand", lambda a: a.numpy() * tf.constant(2.0)),
])
def test_value_left_the_tape(explained, how, leave):
    def run():
        w = tf.Variable(2.0)
        with tf.GradientTape() as tape:
            a = w * 3.0
            b = leave(a)
        return tape.gradient(b, w)

    assert run() is None
    w, text = _only(explained)
    assert w.lineno == _leave_line(how), text
    assert "left the tape" in text and "`w`" in text, text


def _leave_line(how):
    """The line of the parametrize entry whose lambda made the value leave."""
    lines, start = inspect.getsourcelines(test_value_left_the_tape)
    return next(start + i for i, t in enumerate(lines) if t.strip().startswith(f'("{how}",'))


def test_python_math_call(explained):
    def run():
        w = tf.Variable(0.5)
        with tf.GradientTape() as tape:
            s = tf.constant(math.sin(w * 2.0))  # <- here
            y = s * 3.0
        return tape.gradient(y, w)

    assert run() is None
    text = _check(explained, run, "left the tape", "w")
    assert "math" in text


@pytest.mark.parametrize("op", ["cast", "argmax", "round", "compare", "floor"])
def test_op_without_gradient(explained, op):
    def run():
        w = tf.Variable([0.5, 2.5])
        with tf.GradientTape() as tape:
            if op == "cast":
                y = tf.cast(tf.cast(w * 2.0, tf.int32), tf.float32)  # <- cast
            elif op == "argmax":
                y = tf.cast(tf.argmax(w * 2.0), tf.float32)  # <- argmax
            elif op == "round":
                y = tf.round(w * 2.0) * 3.0  # <- round
            elif op == "compare":
                y = tf.cast(w > 1.0, tf.float32)  # <- compare
            else:
                y = tf.floor(w) + 1.0  # <- floor
        return tape.gradient(y, w)

    assert run() is None
    w, text = _only(explained)
    assert w.lineno == _line(run, f"# <- {op}"), text
    assert "`w`" in text and "on the path" in text, text
    if op == "cast":
        assert "integer/bool" in text and "`cast`" in text
    else:
        shown = {"compare": "greater"}.get(op, op)
        assert "has no gradient" in text and shown in text


def test_stop_gradient(explained):
    def run():
        w = tf.Variable(2.0)
        with tf.GradientTape() as tape:
            h = tf.stop_gradient(w * 2.0)  # <- here
            y = h * h
        return tape.gradient(y, w)

    assert run() is None
    _check(explained, run, "tf.stop_gradient", "w")


def test_target_computed_before_the_with_block(explained):
    def run():
        x = tf.constant(2.0)
        y = x * x  # <- here
        with tf.GradientTape() as tape:
            tape.watch(x)
        return tape.gradient(y, x)

    assert run() is None
    _check(explained, run, "before the tape's `with` block began", "x")


def test_target_computed_under_stop_recording(explained):
    def run():
        w = tf.Variable(2.0)
        with tf.GradientTape() as tape:
            with tape.stop_recording():
                y = w * 5.0  # <- here
            y = y + 1.0
        return tape.gradient(y, w)

    assert run() is None
    _check(explained, run, "under tape.stop_recording()", "w")


def test_stop_recording_on_a_watched_tensor(explained):
    def run():
        x = tf.constant(2.0)
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            a = x * 2.0
            with tape.stop_recording():
                b = a * 3.0  # <- here
            y = b + a * 0.0
        g = tape.gradient(b, x)
        return g

    assert run() is None
    _check(explained, run, "while the tape was not recording", "x")


def test_target_does_not_use_the_source(explained):
    def run():
        w, u = tf.Variable(2.0), tf.Variable(1.0)
        with tf.GradientTape() as tape:
            y = w * 5.0
        return tape.gradient(y, [w, u])  # <- here

    g = run()
    assert g[0] is not None and g[1] is None
    _check(explained, run, "does not use it at all", "u")


def test_integer_source(explained):
    def run():
        k = tf.constant(3)
        with tf.GradientTape() as tape:
            tape.watch(k)
            y = k * 2  # <- here
        return tape.gradient(y, k)

    assert run() is None
    _check(explained, run, "dtype int32", "k")


def test_one_warning_per_none_source(explained):
    x = tf.constant(1.0)
    v = tf.Variable(1.0, trainable=False)
    w = tf.Variable(1.0)
    with tf.GradientTape() as tape:
        y = x * v * w
    g = tape.gradient(y, {"x": x, "v": v, "w": w})
    assert g["x"] is None and g["v"] is None and g["w"] is not None
    ours = [w for w in explained if issubclass(w.category, GradientExplanationWarning)]
    assert len(ours) == 2
    texts = sorted(str(w.message) for w in ours)  # nest flattens a dict in key order: v, x
    assert "`v`" in texts[0] and "trainable=False" in texts[0]
    assert "`x`" in texts[1] and "not watched" in texts[1]


def test_jacobian_explains_its_nones(explained):
    def run():
        x = tf.constant([1.0, 2.0])
        w = tf.Variable([1.0, 1.0])
        with tf.GradientTape() as tape:
            y = tf.stop_gradient(x * w) * 2.0  # <- here
        return tape.jacobian(y, w)

    assert run() is None
    w, text = _only(explained)
    assert text.startswith("tape.jacobian returned None") and w.lineno == _line(run)


def test_batch_jacobian_integer_source(explained):
    def run():
        k = tf.constant([[1, 2]])
        with tf.GradientTape() as tape:
            tape.watch(k)
            y = k * 2  # <- here
        return tape.batch_jacobian(y, k)

    assert run() is None
    _check(explained, run, "dtype int32", "k")


def test_zero_mode_and_connected_gradients_do_not_warn(explained):
    x = tf.constant(1.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
    assert tape.gradient(y, x) is not None
    z = tape.gradient(tf.constant(1.0), x, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    assert float(z) == 0.0
    assert not [w for w in explained if issubclass(w.category, GradientExplanationWarning)]


def test_disabled_by_default_nothing_is_said():
    assert not tf.debugging.gradient_explanations_enabled()
    x = tf.constant(1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with tf.GradientTape() as tape:
            y = x * x
        assert tape.gradient(y, x) is None


def test_keras_frames_are_skipped(explained):
    layer = tf.keras.layers.Dense(2, trainable=False)
    x = tf.constant([[1.0, 2.0]])

    def run():
        with tf.GradientTape() as tape:
            y = layer(x)  # <- here
        return tape.gradient(y, layer.kernel)

    assert run() is None
    w, text = _only(explained)
    assert w.lineno == _line(run), text
