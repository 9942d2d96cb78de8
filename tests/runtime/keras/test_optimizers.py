"""keras.optimizers: a few steps against numbers worked out by hand from Keras 3's update formulas
(and the examples in TensorFlow's optimizer docs)."""

import numpy as np
import pytest

import runtime as tf
from runtime import keras
from runtime.keras import optimizers


def _steps(opt, grads, start=1.0):
    v = tf.Variable(start)
    out = []
    for g in grads:
        opt.apply_gradients([(tf.constant(g), v)])
        out.append(float(v.numpy()))
    return out


def test_defaults():
    assert float(optimizers.SGD().learning_rate) == pytest.approx(0.01)
    assert float(optimizers.Adam().learning_rate) == pytest.approx(0.001)
    assert float(optimizers.RMSprop().learning_rate) == pytest.approx(0.001)
    assert float(optimizers.Adagrad().learning_rate) == pytest.approx(0.001)
    assert optimizers.Adam().epsilon == 1e-7


def test_sgd_plain_and_the_docs_example():
    assert _steps(optimizers.SGD(0.1), [1.0, 1.0]) == pytest.approx([0.9, 0.8])
    # docs: SGD(0.1) on loss var**2/2 from 1.0: one step gives 0.9
    var = tf.Variable(1.0)
    opt = optimizers.SGD(learning_rate=0.1)
    step = opt.minimize(lambda: (var ** 2) / 2.0, [var])
    assert float(var.numpy()) == pytest.approx(0.9) and int(step.numpy()) == 1


def test_sgd_momentum():
    # m = 0.9 m - 0.1 g; v += m  ->  m: -0.1, -0.19, -0.271
    assert _steps(optimizers.SGD(0.1, momentum=0.9), [1.0, 1.0, 1.0]) == pytest.approx([0.9, 0.71, 0.439])
    # docs: with momentum 0.9 on var**2/2, the first two steps move var by 0.1 and then 0.18
    var = tf.Variable(1.0)
    opt = optimizers.SGD(learning_rate=0.1, momentum=0.9)
    opt.minimize(lambda: (var ** 2) / 2.0, [var])
    v1 = float(var.numpy())
    opt.minimize(lambda: (var ** 2) / 2.0, [var])
    assert 1.0 - v1 == pytest.approx(0.1) and v1 - float(var.numpy()) == pytest.approx(0.18)


def test_sgd_nesterov():
    # v += 0.9 m - 0.1 g with the new m: 1 - 0.09 - 0.1 = 0.81; 0.81 - 0.171 - 0.1 = 0.539
    assert _steps(optimizers.SGD(0.1, momentum=0.9, nesterov=True), [1.0, 1.0]) == pytest.approx([0.81, 0.539])


def test_adam_epsilon_outside_the_root():
    # docs: Adam(0.1) on var**2/2 from 10.0: one step gives 9.9
    var = tf.Variable(10.0)
    optimizers.Adam(learning_rate=0.1).minimize(lambda: (var ** 2) / 2.0, [var])
    assert float(var.numpy()) == pytest.approx(9.9, abs=1e-6)
    # step 1, g = 1: m = 0.1, v = 0.001, alpha = 0.1 sqrt(0.001) / 0.1; update = alpha m / (sqrt(v) + 1e-7)
    alpha1 = 0.1 * np.sqrt(1 - 0.999) / (1 - 0.9)
    u1 = alpha1 * 0.1 / (np.sqrt(0.001) + 1e-7)
    # step 2, g = 0.5: m = 0.9*0.1 + 0.1*0.5 = 0.14; v = 0.999*0.001 + 0.001*0.25 = 0.001249
    alpha2 = 0.1 * np.sqrt(1 - 0.999 ** 2) / (1 - 0.9 ** 2)
    u2 = alpha2 * 0.14 / (np.sqrt(0.001249) + 1e-7)
    got = _steps(optimizers.Adam(0.1), [1.0, 0.5])
    # float32 as Keras computes it (1 - beta_2 is rounded from the Python float): TF 2.21 gives
    # these two values, 2e-6 from the float64 formula
    assert got == pytest.approx([1 - u1, 1 - u1 - u2], rel=5e-6)
    assert got[1] == 0.8067842125892639
    assert got[0] == 0.9000009894371033  # TF 2.21 (was 0.90000032: not what TF prints)


def test_adam_amsgrad_keeps_the_largest_second_moment():
    got = _steps(optimizers.Adam(0.1, amsgrad=True), [1.0, 0.0])
    # step 2: g = 0, m = 0.09, v = 0.000999 < v_hat = 0.001 (kept)
    alpha2 = 0.1 * np.sqrt(1 - 0.999 ** 2) / (1 - 0.81)
    assert got[1] == pytest.approx(got[0] - alpha2 * 0.09 / (np.sqrt(0.001) + 1e-7), rel=1e-6)


def test_rmsprop():
    # docs: RMSprop(0.1) on var**2/2 from 10.0: 10 - 0.1 * 10 / sqrt(0.1 * 100 + 1e-7) = 9.683772
    var = tf.Variable(10.0)
    optimizers.RMSprop(learning_rate=0.1).minimize(lambda: (var ** 2) / 2.0, [var])
    assert float(var.numpy()) == pytest.approx(9.683772, abs=1e-5)
    # two steps, g = 1 then 2: s = 0.1, then 0.09 + 0.4 = 0.49
    got = _steps(optimizers.RMSprop(0.1), [1.0, 2.0])
    u1 = 0.1 / np.sqrt(0.1 + 1e-7)
    u2 = 0.2 / np.sqrt(0.49 + 1e-7)
    assert got == pytest.approx([1 - u1, 1 - u1 - u2], rel=1e-6)
    # momentum: m = 0.5 m + increment
    got = _steps(optimizers.RMSprop(0.1, momentum=0.5), [1.0, 2.0])
    assert got == pytest.approx([1 - u1, 1 - u1 - (0.5 * u1 + u2)], rel=1e-6)
    # centered: denominator s - mg^2 + eps, mg = 0.1 g running mean
    got = _steps(optimizers.RMSprop(0.1, centered=True), [1.0])
    assert got == pytest.approx([1 - 0.1 / np.sqrt(0.1 - 0.01 + 1e-7)], rel=1e-6)


def test_adagrad():
    # accumulator starts at 0.1: a = 1.1, then 1.1 + 4 = 5.1
    got = _steps(optimizers.Adagrad(0.1), [1.0, 2.0])
    u1 = 0.1 / np.sqrt(1.1 + 1e-7)
    u2 = 0.2 / np.sqrt(5.1 + 1e-7)
    assert got == pytest.approx([1 - u1, 1 - u1 - u2], rel=1e-6)
    assert got[0] == pytest.approx(0.9046537, abs=1e-6)


def test_exponential_decay_schedule():
    sched = optimizers.schedules.ExponentialDecay(0.1, decay_steps=2, decay_rate=0.5)
    assert float(sched(0)) == pytest.approx(0.1)
    assert float(sched(1)) == pytest.approx(0.1 * 0.5 ** 0.5)
    assert float(sched(4)) == pytest.approx(0.025)
    stair = optimizers.schedules.ExponentialDecay(0.1, 2, 0.5, staircase=True)
    assert float(stair(3)) == pytest.approx(0.05)
    opt = optimizers.SGD(learning_rate=sched)
    # step 1 uses lr(0) = 0.1, step 2 uses lr(1) = 0.0707...
    got = _steps(opt, [1.0, 1.0])
    assert got == pytest.approx([0.9, 0.9 - 0.1 * 0.5 ** 0.5], rel=1e-6)
    assert float(opt.learning_rate) == pytest.approx(0.05)
    assert keras.optimizers.schedules is optimizers.schedules


def test_inverse_time_decay_schedule_and_configs():
    sched = optimizers.schedules.InverseTimeDecay(0.1, decay_steps=2, decay_rate=0.5)
    assert float(sched(0)) == pytest.approx(0.1)
    assert float(sched(3)) == pytest.approx(0.1 / (1 + 0.5 * 1.5))
    stair = optimizers.schedules.InverseTimeDecay(0.1, 2, 0.5, staircase=True)
    assert float(stair(3)) == pytest.approx(0.1 / 1.5)
    for s in (sched, stair, optimizers.schedules.ExponentialDecay(0.1, 2, 0.5, staircase=True)):
        again = type(s).from_config(s.get_config())
        assert [float(again(k)) for k in range(5)] == [float(s(k)) for k in range(5)]


def test_apply_gradients_on_model_variables_skips_none_and_counts_steps():
    a, b = tf.Variable([1.0, 2.0]), tf.Variable(3.0)
    opt = optimizers.SGD(0.5)
    opt.apply_gradients(zip([tf.constant([1.0, 1.0]), None], [a, b]))
    np.testing.assert_allclose(a.numpy(), [0.5, 1.5])
    assert float(b.numpy()) == 3.0 and int(opt.iterations.numpy()) == 1
    opt.learning_rate = 0.1
    assert float(opt.learning_rate) == pytest.approx(0.1)
    with pytest.raises(ValueError):
        opt.minimize(tf.constant(1.0), [a])       # a tensor loss needs its tape


def test_minimize_with_tape_and_clipping():
    v = tf.Variable([3.0, 4.0])
    with tf.GradientTape() as tape:
        loss = np.sum(v * v) / 2.0                # gradient = v = [3, 4], norm 5
    optimizers.SGD(1.0, clipnorm=1.0).minimize(loss, [v], tape=tape)
    np.testing.assert_allclose(v.numpy(), [3.0 - 0.6, 4.0 - 0.8], rtol=1e-6)
    w = tf.Variable([1.0])
    optimizers.SGD(1.0, clipvalue=0.5).apply_gradients([(tf.constant([3.0]), w)])
    np.testing.assert_allclose(w.numpy(), [0.5])


def test_optimizer_by_name_and_dtype_kept():
    assert isinstance(optimizers.get("adam"), optimizers.Adam)
    v = tf.Variable(np.ones(3, np.float32))
    optimizers.Adam().apply_gradients([(tf.constant(np.ones(3, np.float32)), v)])
    assert v.dtype == tf.float32
