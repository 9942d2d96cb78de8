"""Custom training loop vs optimizer vs compile/fit, with adjoin's TF-compatible runtime.

The model is the one from the seed program (a Keras Model subclass, Dense(30, relu) -> Dense(1))
trained on a regression data set generated with a fixed seed (no download): 8 standardized
features, a smooth nonlinear target plus noise, 8,000 training and 2,000 validation rows.

It is trained three times from the same initial weights, over the same batches:

1. by hand: ``GradientTape`` + ``variable.assign_sub(learning_rate * grad)``;
2. with ``keras.optimizers.SGD`` and ``apply_gradients(zip(grads, model.variables))``;
3. with ``model.compile(...)`` + ``model.fit(...)``.

All three are plain SGD with learning rate 0.01, so they end with the same weights (printed).
The loss per epoch is printed, and saved as a plot when matplotlib is installed.

Run:  python examples/custom_training.py [--epochs 20] [--plot loss_curves.png]
"""

import argparse
import time

import numpy as np

import runtime as tf
from runtime import keras

reduce_mean = getattr(tf, "reduce_mean", np.mean)   # tf.reduce_mean once the tf namespace has it


def make_data(n=10_000, seed=42):
    """A fixed regression problem: y depends nonlinearly on 8 correlated features."""
    rng = np.random.default_rng(seed)
    mix = rng.normal(size=(8, 8)) / np.sqrt(8)
    x = rng.normal(size=(n, 8)) @ (np.eye(8) + 0.5 * mix)
    y = (1.5 * np.tanh(x[:, 0]) + 0.8 * x[:, 1] * x[:, 2] - np.abs(x[:, 3]) + 0.3 * x[:, 4:].sum(1)
         + 0.1 * rng.normal(size=n))
    split = int(0.8 * n)
    mean, std = x[:split].mean(0), x[:split].std(0)
    x = ((x - mean) / std).astype(np.float32)          # "x_train_scaled" in the seed program
    y = y.astype(np.float32)
    return (x[:split], y[:split]), (x[split:], y[split:])


class MyModel(keras.models.Model):
    def __init__(self):
        super(MyModel, self).__init__()
        self.d_1 = keras.layers.Dense(30, activation="relu")
        self.d_2 = keras.layers.Dense(1)

    def call(self, x, training=True, mask=None):
        return self.d_2(self.d_1(x))


def new_model(x_example, seed=7):
    model = MyModel()
    keras.utils.set_random_seed(seed)       # same initial weights for every run
    model(x_example[:1])
    return model


def batches(x, y, batch_size):
    for i in range(0, len(x), batch_size):
        yield x[i:i + batch_size], y[i:i + batch_size]


def val_loss(model, x, y):
    return float(reduce_mean(keras.losses.mean_squared_error(y, model(x))))


def train_by_hand(model, x, y, xv, yv, epochs, batch_size, learning_rate=0.01):
    history = []
    for epoch in range(epochs):
        losses = []
        for xb, yb in batches(x, y, batch_size):
            with tf.GradientTape() as tape:
                pred_output = model(xb)
                current_loss = reduce_mean(keras.losses.mean_squared_error(yb, pred_output))
            grads = tape.gradient(current_loss, model.variables)
            for idx in range(len(model.variables)):
                model.variables[idx].assign_sub(learning_rate * grads[idx])
            losses.append(float(current_loss) * len(xb))
        history.append((sum(losses) / len(x), val_loss(model, xv, yv)))
        print(f"  by hand    epoch {epoch + 1:3d}  loss {history[-1][0]:.4f}  val_loss {history[-1][1]:.4f}")
    return history


def train_with_optimizer(model, x, y, xv, yv, epochs, batch_size):
    optimizer = keras.optimizers.SGD(learning_rate=0.01)
    history = []
    for epoch in range(epochs):
        losses = []
        for xb, yb in batches(x, y, batch_size):
            with tf.GradientTape() as tape:
                current_loss = reduce_mean(keras.losses.mean_squared_error(yb, model(xb)))
            grads = tape.gradient(current_loss, model.variables)
            optimizer.apply_gradients(zip(grads, model.variables))
            losses.append(float(current_loss) * len(xb))
        history.append((sum(losses) / len(x), val_loss(model, xv, yv)))
        print(f"  optimizer  epoch {epoch + 1:3d}  loss {history[-1][0]:.4f}  val_loss {history[-1][1]:.4f}")
    return history


def max_weight_difference(a, b):
    return max(float(np.max(np.abs(va.numpy() - vb.numpy()))) for va, vb in zip(a.variables, b.variables))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--plot", default="loss_curves.png", help="where to save the plot (needs matplotlib)")
    args = parser.parse_args()

    (x, y), (xv, yv) = make_data()
    print(f"data: {x.shape[0]} training rows, {xv.shape[0]} validation rows, {x.shape[1]} features")

    print("1. hand-written loop: GradientTape + assign_sub")
    m1 = new_model(x)
    t0 = time.perf_counter()
    h1 = train_by_hand(m1, x, y, xv, yv, args.epochs, args.batch_size)
    t1 = time.perf_counter() - t0

    print("2. GradientTape + optimizer.apply_gradients")
    m2 = new_model(x)
    t0 = time.perf_counter()
    h2 = train_with_optimizer(m2, x, y, xv, yv, args.epochs, args.batch_size)
    t2 = time.perf_counter() - t0

    print("3. compile + fit")
    m3 = new_model(x)
    m3.compile(optimizer=keras.optimizers.SGD(learning_rate=0.01), loss="mse")
    t0 = time.perf_counter()
    fit = m3.fit(x, y, batch_size=args.batch_size, epochs=args.epochs, validation_data=(xv, yv),
                 shuffle=False, verbose=2)
    t3 = time.perf_counter() - t0
    m3.summary()

    print(f"time: by hand {t1:.2f}s, optimizer {t2:.2f}s, fit {t3:.2f}s")
    print(f"max |weight difference|: by hand vs optimizer {max_weight_difference(m1, m2):.2e}, "
          f"optimizer vs fit {max_weight_difference(m2, m3):.2e}")

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plot")
        return
    epochs = np.arange(1, args.epochs + 1)
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(epochs, [h[0] for h in h1], "o-", label="by hand: train")
    ax.plot(epochs, [h[1] for h in h1], "o--", label="by hand: validation")
    ax.plot(epochs, [h[0] for h in h2], "x-", label="apply_gradients: train")
    ax.plot(epochs, fit.history["loss"], "+-", label="fit: train")
    ax.plot(epochs, fit.history["val_loss"], "+--", label="fit: validation")
    ax.set_xlabel("epoch")
    ax.set_ylabel("mean squared error")
    ax.set_title("Dense(30, relu) -> Dense(1), SGD(0.01)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.plot, dpi=120)
    print(f"saved {args.plot}")


if __name__ == "__main__":
    main()
