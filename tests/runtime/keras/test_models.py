"""keras Model subclassing, Sequential, functional models, summary(), metrics and compile/fit."""

import re

import numpy as np
import pytest

import runtime as tf
from runtime import keras
from runtime.keras import backend, layers, metrics


@pytest.fixture(autouse=True)
def fresh_names():
    backend.clear_session()
    keras.utils.set_random_seed(0)
    yield


class MyModel(keras.models.Model):            # the seed program's model
    def __init__(self):
        super(MyModel, self).__init__()
        self.d_1 = keras.layers.Dense(30, activation="relu")
        self.d_2 = keras.layers.Dense(1)

    def call(self, x, training=True, mask=None):
        return self.d_2(self.d_1(x))


def _data(n=96, d=8, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, d)).astype(np.float32)
    y = (x @ rng.normal(size=d) + 0.5 * np.sin(x[:, 0])).astype(np.float32)
    return x, y


def test_subclassed_model_tracks_layers_and_variables_in_order():
    model = MyModel()
    assert model.variables == []
    out = model(np.zeros((2, 8)))
    assert out.shape == (2, 1) and out.dtype == tf.float32
    assert model.name == "my_model"
    assert [v.path for v in model.variables] == ["my_model/dense/kernel", "my_model/dense/bias",
                                                 "my_model/dense_1/kernel", "my_model/dense_1/bias"]
    assert [v.name for v in model.trainable_variables] == ["kernel", "bias", "kernel", "bias"]
    assert model.layers == [model.d_1, model.d_2]
    assert model.count_params() == 8 * 30 + 30 + 31
    out2 = model(tf.constant(np.zeros((3, 8), np.float32)))
    assert out2.shape == (3, 1)


def test_seed_custom_loop_assign_sub_and_apply_gradients():
    x, y = _data()
    model = MyModel()

    def train_by_hand(inp, target, learning_rate=0.01):
        with tf.GradientTape() as tape:
            pred = model(inp)
            loss = np.mean(keras.losses.mean_squared_error(target, pred))
        grads = tape.gradient(loss, model.variables)
        for idx in range(len(model.variables)):
            model.variables[idx].assign_sub(learning_rate * grads[idx])
        return float(loss)

    optimizer = keras.optimizers.SGD()

    def train_with_optimizer(inp, target):
        with tf.GradientTape() as tape:
            pred = model(inp)
            loss = np.mean(keras.losses.mean_squared_error(target, pred))
        grads = tape.gradient(loss, model.variables)
        optimizer.apply_gradients(zip(grads, model.variables))
        return float(loss)

    first = [train_by_hand(x[i:i + 32], y[i:i + 32]) for i in range(0, 96, 32)]
    for _ in range(20):
        last = [train_with_optimizer(x[i:i + 32], y[i:i + 32]) for i in range(0, 96, 32)]
    assert np.mean(last) < 0.5 * np.mean(first)
    assert all(v.dtype == tf.float32 for v in model.variables)


def test_fit_gives_the_same_weights_as_the_hand_written_loop():
    x, y = _data()
    by_hand, by_fit = MyModel(), MyModel()
    keras.utils.set_random_seed(1)
    by_hand(x[:1])                      # weights are created on the first call
    keras.utils.set_random_seed(1)
    by_fit(x[:1])
    for a, b in zip(by_hand.variables, by_fit.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())

    opt = keras.optimizers.Adam(0.01)
    for epoch in range(3):
        for i in range(0, len(x), 32):
            with tf.GradientTape() as tape:
                loss = np.mean(keras.losses.mean_squared_error(y[i:i + 32], by_hand(x[i:i + 32], training=True)))
            grads = tape.gradient(loss, by_hand.trainable_variables)
            opt.apply_gradients(zip(grads, by_hand.trainable_variables))

    by_fit.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse")
    by_fit.fit(x, y, batch_size=32, epochs=3, shuffle=False, verbose=0)
    for a, b in zip(by_hand.variables, by_fit.variables):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=0, atol=1e-7)


def test_fit_progress_lines_history_evaluate_predict(capsys):
    x, y = _data()
    model = keras.Sequential([keras.Input(shape=(8,)), layers.Dense(30, activation="relu"), layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.SGD(0.01), loss=keras.losses.MeanSquaredError(), metrics=["mae"])
    hist = model.fit(x, y, batch_size=32, epochs=2, validation_data=(x[:40], y[:40]))
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Epoch 1/2" and out[2] == "Epoch 2/2"
    line = re.compile(r"^3/3 ━{20} \d+s \d+(us|ms|s)/step - loss: \d+\.\d{4} - mae: \d+\.\d{4} "
                      r"- val_loss: \d+\.\d{4} - val_mae: \d+\.\d{4}$")
    assert line.match(out[1]) and line.match(out[3]), out
    assert sorted(hist.history) == ["loss", "mae", "val_loss", "val_mae"]
    assert len(hist.history["loss"]) == 2 and hist.epoch == [0, 1]
    assert model.history is hist

    # the logged loss is the batch-size weighted mean of the batch losses
    loss, mae = model.evaluate(x, y, batch_size=40, verbose=0)
    pred = model.predict(x, verbose=0)
    assert pred.shape == (96, 1) and pred.dtype == np.float32
    assert loss == pytest.approx(float(np.mean((pred[:, 0] - y) ** 2)), rel=1e-5)
    assert mae == pytest.approx(float(np.mean(np.abs(pred[:, 0] - y))), rel=1e-5)
    model.fit(x, y, epochs=1, verbose=2)
    assert re.match(r"^3/3 - \d+s - \d+(us|ms|s)/step - loss: ", capsys.readouterr().out.splitlines()[1])


def test_fit_on_a_dataset_gives_the_same_weights_as_fit_on_arrays():
    x, y = _data()
    on_arrays, on_dataset = MyModel(), MyModel()
    for model in (on_arrays, on_dataset):
        keras.utils.set_random_seed(1)
        model(x[:1])
        model.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse", metrics=["mae"])
    h1 = on_arrays.fit(x, y, batch_size=20, epochs=2, shuffle=False, verbose=0)
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(20)
    h2 = on_dataset.fit(ds, epochs=2, shuffle=False, verbose=0)
    for a, b in zip(on_arrays.variables, on_dataset.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    assert h1.history == h2.history and h2.params["steps"] == 5
    assert on_dataset.evaluate(ds, verbose=0) == on_arrays.evaluate(x, y, batch_size=20, verbose=0)
    np.testing.assert_array_equal(on_dataset.predict(ds, verbose=0), on_arrays.predict(x, verbose=0))


def test_fit_on_a_dataset_refuses_what_keras_refuses():
    x, y = _data(n=8)
    model = keras.Sequential([keras.Input(shape=(8,)), layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(4)
    with pytest.raises(ValueError, match="validation_split"):
        model.fit(ds, validation_split=0.5, verbose=0)
    with pytest.warns(UserWarning, match="shuffle=True"):
        model.fit(ds, verbose=0)
    with pytest.raises(ValueError, match="steps_per_epoch"):
        model.fit(ds.repeat(), verbose=0, shuffle=False)
    with pytest.warns(UserWarning, match="ran out of data"):
        hist = model.fit(ds, epochs=2, steps_per_epoch=3, verbose=0, shuffle=False)
    assert hist.epoch == [0, 1]
    with pytest.raises(ValueError, match="found a tuple of 4"):
        model.fit(tf.data.Dataset.from_tensor_slices((x, y, y, y)).batch(4), verbose=0, shuffle=False)


def test_fit_reduces_loss_with_each_optimizer():
    x, y = _data()
    for opt in ("sgd", "adam", "rmsprop", keras.optimizers.Adagrad(0.05),
                keras.optimizers.SGD(0.01, momentum=0.9, nesterov=True)):
        backend.clear_session()
        model = keras.Sequential([layers.Dense(16, activation="relu"), layers.Dense(1)])
        model.compile(optimizer=opt, loss="mse")
        hist = model.fit(x, y, epochs=5, verbose=0)
        assert hist.history["loss"][-1] < hist.history["loss"][0], opt


def test_classification_compile_with_accuracy():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(120, 4)).astype(np.float32)
    labels = (x[:, 0] + x[:, 1] > 0).astype(np.int64) + (x[:, 2] > 1).astype(np.int64)
    model = keras.Sequential([layers.Dense(16, activation="relu", input_shape=(4,)), layers.Dropout(0.1),
                              layers.Dense(3)])
    model.compile(optimizer="adam", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    hist = model.fit(x, labels, epochs=15, batch_size=16, verbose=0, validation_split=0.2)
    assert hist.history["accuracy"][-1] > 0.7
    assert "val_accuracy" in hist.history
    res = model.evaluate(x, labels, verbose=0, return_dict=True)
    assert set(res) == {"loss", "accuracy"}


def test_summary_matches_keras3_layout(capsys):
    model = keras.Sequential([keras.Input(shape=(3,)), layers.Dense(30, activation="relu"), layers.Dense(1)])
    model.summary()
    expected = """\
Model: "sequential"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓
┃ Layer (type)                    ┃ Output Shape           ┃       Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩
│ dense (Dense)                   │ (None, 30)             │           120 │
├─────────────────────────────────┼────────────────────────┼───────────────┤
│ dense_1 (Dense)                 │ (None, 1)              │            31 │
└─────────────────────────────────┴────────────────────────┴───────────────┘
 Total params: 151 (604.00 B)
 Trainable params: 151 (604.00 B)
 Non-trainable params: 0 (0.00 B)
"""
    assert capsys.readouterr().out == expected
    assert model.variables[0].path == "sequential/dense/kernel"
    assert model.output_shape == (None, 1)


def test_functional_model():
    inp = keras.Input(shape=(4,))
    h = layers.Dense(8, activation="tanh")(inp)
    out = layers.Dense(2)(h)
    model = keras.Model(inputs=inp, outputs=out)
    y = model(np.ones((5, 4)))
    assert y.shape == (5, 2)
    assert len(model.trainable_variables) == 4
    with tf.GradientTape() as tape:
        loss = np.sum(model(np.ones((5, 4))))
    assert all(g is not None for g in tape.gradient(loss, model.trainable_variables))
    text = []
    model.summary(print_fn=text.append)
    assert "input_layer (InputLayer)" in text[0] and "Total params: 58 (232.00 B)" in text[0]


def test_metrics_mean_and_mean_squared_error():
    m = metrics.Mean()
    m.update_state([1.0, 2.0, 3.0])
    m.update_state(tf.constant(10.0))
    r = m.result()
    assert isinstance(r, tf.Tensor) and r.dtype == tf.float32 and float(r) == pytest.approx(4.0)
    m.update_state([2.0], sample_weight=[4.0])
    assert float(m.result()) == pytest.approx((16 + 8) / 8)
    m.reset_state()
    assert float(m.result()) == 0.0
    mse = metrics.MeanSquaredError()
    mse.update_state(np.array([[0.0, 1.0], [0.0, 0.0]]), tf.constant(np.array([[1.0, 1.0], [1.0, 0.0]], np.float32)))
    assert float(mse.result()) == pytest.approx(0.5) and mse.name == "mean_squared_error"
    assert float(mse(np.zeros((2, 2)), tf.constant(np.zeros((2, 2), np.float32)))) == pytest.approx(0.25)


def test_model_set_get_weights_and_trainable_flag():
    model = MyModel()
    model(np.zeros((1, 8)))
    w = model.get_weights()
    assert [a.shape for a in w] == [(8, 30), (30,), (30, 1), (1,)]
    model.set_weights([np.ones_like(a) for a in w])
    assert float(model(np.ones((1, 8)))[0, 0]) == pytest.approx(30 * 9 + 1)
    model.d_1.trainable = False
    assert len(model.trainable_variables) == 2 and len(model.non_trainable_variables) == 2


def test_tracking_sees_layers_appended_later_and_tape_options():
    class Stack(keras.Model):
        def __init__(self):
            super().__init__()
            self.blocks = []

        def call(self, x):
            for b in self.blocks:
                x = b(x)
            return x

    m = Stack()
    m.blocks.append(layers.Dense(2))
    m(np.ones((1, 3)))
    assert len(m.variables) == 2
    m.blocks.append(layers.Dense(1))
    m(np.ones((1, 3)))
    assert len(m.variables) == 4
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        out = np.sum(m(np.ones((1, 3))))
    assert tape.gradient(out, m.variables) == [None] * 4


def test_import_runtime_does_not_load_keras():
    import subprocess
    import sys
    code = "import sys, runtime; print('runtime.keras' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip() == "False"
