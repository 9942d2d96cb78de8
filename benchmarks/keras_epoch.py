"""One training epoch of the seed model (Dense(30, relu) -> Dense(1), SGD, batch 32) on the same data.

Runs the hand-written GradientTape loop with ``optimizer.apply_gradients`` on adjoin's runtime
and, when TensorFlow is installed, the identical program on TensorFlow (eager, as the seed runs
it), and prints the ratio from this one run.  Also times ``import runtime`` and
``import runtime.keras`` in fresh interpreters (``import runtime`` must stay under 0.2 s).

Run: python benchmarks/keras_epoch.py [--rows 8000] [--repeat 3]
"""

import argparse
import subprocess
import sys
import time

import numpy as np


def data(rows, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(rows, 8)).astype(np.float32)
    y = (np.tanh(x[:, 0]) + x[:, 1] * x[:, 2] + 0.1 * rng.normal(size=rows)).astype(np.float32)
    return x, y


def epoch_runner(tf, keras, x, y, batch_size=32):
    class MyModel(keras.models.Model):
        def __init__(self):
            super().__init__()
            self.d_1 = keras.layers.Dense(30, activation="relu")
            self.d_2 = keras.layers.Dense(1)

        def call(self, x, training=True, mask=None):
            return self.d_2(self.d_1(x))

    model = MyModel()
    model(x[:1])
    optimizer = keras.optimizers.SGD(learning_rate=0.01)
    reduce_mean = getattr(tf, "reduce_mean", np.mean)
    mse = getattr(keras.losses, "mean_squared_error", None) or keras.losses.mse

    def one_epoch():
        for i in range(0, len(x), batch_size):
            with tf.GradientTape() as tape:
                loss = reduce_mean(mse(y[i:i + batch_size], model(x[i:i + batch_size])))
            grads = tape.gradient(loss, model.variables)
            optimizer.apply_gradients(zip(grads, model.variables))
        return float(loss)

    return one_epoch


def best_of(fn, repeat):
    fn()  # warm-up
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def import_time(module, repeat=5):
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    runs = [float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
            for _ in range(repeat)]
    return min(runs)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=8000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    x, y = data(args.rows)
    steps = -(-args.rows // 32)

    import runtime
    from runtime import keras
    t_rt = best_of(epoch_runner(runtime, keras, x, y), args.repeat)
    print(f"runtime    : {t_rt * 1e3:8.1f} ms/epoch  ({t_rt / steps * 1e6:.0f} us/step, {steps} steps)")

    try:
        import tensorflow as tf_real
    except ImportError:
        print("tensorflow : not installed (no ratio)")
    else:
        t_tf = best_of(epoch_runner(tf_real, tf_real.keras, x, y), args.repeat)
        print(f"tensorflow : {t_tf * 1e3:8.1f} ms/epoch  ({t_tf / steps * 1e6:.0f} us/step)")
        print(f"ratio      : runtime / tensorflow = {t_rt / t_tf:.2f}")

    print(f"import runtime       : {import_time('runtime') * 1e3:.0f} ms (limit 200 ms)")
    print(f"import runtime.keras : {import_time('runtime.keras') * 1e3:.0f} ms")


if __name__ == "__main__":
    main()
