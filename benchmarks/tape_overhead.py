"""Per-op cost of recording and differentiating small ops on the tape.

200 ops (a chain of *, +, sin-free arithmetic) on shape-(8,) float32 tensors, forward + backward,
next to raw numpy doing the same forward ops, and TF / PyTorch when installed.  Ratios are
measured in one run.  Run: python benchmarks/tape_overhead.py
"""

import time

import numpy as np

N_OPS = 200
REPEAT = 30


def best_of(fn, repeat=REPEAT):
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def chain(x, w):
    """N_OPS elementwise ops alternating multiply and add."""
    y = x
    for i in range(N_OPS // 2):
        y = y * w
        y = y + x
    return y


def run_numpy(x0, w0):
    chain(x0, w0)


def run_runtime(tf, x0, w0):
    x = tf.constant(x0)
    w = tf.Variable(w0)

    def step():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = chain(x, w)
        tape.gradient(y, [x, w])

    return step


def main():
    rng = np.random.default_rng(0)
    x0 = rng.uniform(0.5, 1.0, 8).astype(np.float32)
    w0 = rng.uniform(0.5, 1.0, 8).astype(np.float32)
    rows = []
    t_np = best_of(lambda: run_numpy(x0, w0))
    rows.append(("numpy forward only", t_np))

    import runtime as tf
    rows.append(("adjoin runtime fwd+bwd", best_of(run_runtime(tf, x0, w0))))

    try:
        import torch

        xt = torch.tensor(x0, requires_grad=True)
        wt = torch.tensor(w0, requires_grad=True)

        def torch_step():
            y = chain(xt, wt)
            torch.autograd.grad(y.sum(), [xt, wt])

        rows.append(("pytorch fwd+bwd", best_of(torch_step)))
    except ImportError:
        pass
    try:
        import tensorflow as realtf

        rows.append(("tensorflow fwd+bwd", best_of(run_runtime(realtf, x0, w0), repeat=5)))
    except ImportError:
        pass

    print(f"{N_OPS} ops on shape-(8,) float32, best of {REPEAT} runs")
    print(f"{'system':28s} {'total ms':>10s} {'us/op':>8s} {'vs numpy':>9s}")
    for name, t in rows:
        print(f"{name:28s} {t * 1e3:10.3f} {t / N_OPS * 1e6:8.2f} {t / t_np:8.1f}x")


if __name__ == "__main__":
    main()
