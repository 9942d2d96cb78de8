"""A Keras-style training loop whose model's forward pass is a ``@differentiate`` function.

The model from the seed program (a ``keras.models.Model`` subclass, Dense(30, relu) ->
Dense(1)) is written twice from the same initial weights:

* ``TranspiledMLP``: ``call`` hands its variables to ``mlp``, a plain numpy function under
  ``@differentiate``.  Inside ``tf.GradientTape`` the whole forward is recorded as *one*
  op whose backward is the generated adjoint (print it with ``mlp.show()``);
* ``TapeMLP``: the same forward written with TF ops, recorded op by op.

Both are trained with ``tape.gradient`` + ``keras.optimizers.SGD().apply_gradients`` on
the same batches; the losses and final weights agree to float32 rounding.

Run:  python examples/interop_training.py [--epochs 5] [--show]
"""

import argparse
import time

import numpy as np

import runtime as tf
from runtime import keras
from transpiler import differentiate


@differentiate(wrt=(1, 2, 3, 4))
def mlp(x, w1, b1, w2, b2):
    """Dense(30, relu) -> Dense(1), in numpy."""
    h = np.maximum(x @ w1 + b1, 0.0)
    return h @ w2 + b2


def make_data(n=4000, seed=42):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 8))
    y = 1.5 * np.tanh(x[:, 0]) + 0.8 * x[:, 1] * x[:, 2] - np.abs(x[:, 3]) + 0.1 * rng.normal(size=n)
    split = int(0.8 * n)
    return ((x[:split].astype(np.float32), y[:split, None].astype(np.float32)),
            (x[split:].astype(np.float32), y[split:, None].astype(np.float32)))


def initial_weights(seed=7):
    rng = np.random.default_rng(seed)
    glorot = lambda m, n: rng.uniform(-1, 1, size=(m, n)) * np.sqrt(6 / (m + n))  # noqa: E731
    return [glorot(8, 30), np.zeros(30), glorot(30, 1), np.zeros(1)]


class TranspiledMLP(keras.models.Model):
    def __init__(self, weights):
        super().__init__()
        self.w1, self.b1, self.w2, self.b2 = (tf.Variable(w.astype(np.float32), name=n)
                                              for w, n in zip(weights, ["w1", "b1", "w2", "b2"]))

    def call(self, x, training=True, mask=None):
        return mlp(x, self.w1, self.b1, self.w2, self.b2)      # one recorded op


class TapeMLP(TranspiledMLP):
    def call(self, x, training=True, mask=None):
        h = tf.nn.relu(tf.matmul(x, self.w1) + self.b1)       # recorded op by op
        return tf.matmul(h, self.w2) + self.b2


def train(model, data, epochs, batch_size=32):
    (x, y), (xv, yv) = data
    optimizer = keras.optimizers.SGD(learning_rate=0.01)
    losses, start = [], time.perf_counter()
    for epoch in range(epochs):
        for i in range(0, len(x), batch_size):
            xb, yb = tf.constant(x[i:i + batch_size]), tf.constant(y[i:i + batch_size])
            with tf.GradientTape() as tape:
                pred_output = model(xb)
                current_loss = tf.reduce_mean(keras.losses.mean_squared_error(yb, pred_output))
            grads = tape.gradient(current_loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
        val = float(tf.reduce_mean(keras.losses.mean_squared_error(yv, model(tf.constant(xv)))))
        losses.append((float(current_loss), val))
    return losses, time.perf_counter() - start


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--epochs", type=int, default=5)
    p.add_argument("--show", action="store_true", help="print the generated gradient of mlp")
    a = p.parse_args(argv)
    if a.show:
        mlp.show()
    data = make_data()
    w0 = initial_weights()
    transpiled, by_tape = TranspiledMLP(w0), TapeMLP(w0)

    with tf.GradientTape() as tape:
        transpiled(tf.constant(data[0][0][:4]))
    print(f"ops recorded for one forward of the transpiled model: {len(tape._nodes)}")

    l1, t1 = train(transpiled, data, a.epochs)
    l2, t2 = train(by_tape, data, a.epochs)
    print(f"{'epoch':>5} {'transpiled: loss':>17} {'val':>8}   {'tape ops: loss':>15} {'val':>8}")
    for e, ((a1, v1), (a2, v2)) in enumerate(zip(l1, l2), 1):
        print(f"{e:>5} {a1:>17.5f} {v1:>8.5f}   {a2:>15.5f} {v2:>8.5f}")
    diff = max(float(np.max(np.abs(u.numpy() - v.numpy())))
               for u, v in zip(transpiled.trainable_variables, by_tape.trainable_variables))
    print(f"largest difference between the final weights: {diff:.2e}")
    print(f"training time: transpiled forward {t1:.2f} s, tape-op forward {t2:.2f} s")
    assert diff < 1e-3, diff
    return l1, l2


if __name__ == "__main__":
    main()
