"""tape.jacobian of a 100 -> 100 network, tanh(W2 @ tanh(W1 @ x)), next to its analytic numpy Jacobian.

Issue 13 asks for within 3x of the analytic Jacobian.  Both are timed in one process, interleaved,
best of REPEAT.  JAX / PyTorch / TensorFlow rows appear when they are installed.
Run: python benchmarks/jacobian.py
"""

import time

import numpy as np

from peers_tape import jacobian_hand as analytic  # noqa: F401  (shared with the peers)

N = 100
REPEAT = 50


def best_of(fns, repeat=REPEAT):
    """Best time of each function, the functions interleaved so load hits them alike."""
    for fn in fns:
        fn()
    best = [float("inf")] * len(fns)
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            t0 = time.perf_counter()
            fn()
            best[i] = min(best[i], time.perf_counter() - t0)
    return best


def setup(dtype=np.float32):
    rng = np.random.default_rng(0)
    w1 = (rng.normal(size=(N, N)) / np.sqrt(N)).astype(dtype)
    w2 = (rng.normal(size=(N, N)) / np.sqrt(N)).astype(dtype)
    x = rng.normal(size=(N,)).astype(dtype)
    return w1, w2, x


def runtime_jacobian(tf, w1, w2, x):
    """The network as TF code writes it: x a (N, 1) column, so ``W1 @ x`` is a matmul."""
    W1, W2, X = tf.constant(w1), tf.constant(w2), tf.constant(x[:, None])

    def run():
        with tf.GradientTape() as tape:
            tape.watch(X)
            y = tf.tanh(W2 @ tf.tanh(W1 @ X))
        return tape.jacobian(y, X)
    return run


def runtime_jacobian_matvec(tf, w1, w2, x):
    """The same with a 1-D x and ``tf.linalg.matvec``."""
    W1, W2, X = tf.constant(w1), tf.constant(w2), tf.constant(x)

    def run():
        with tf.GradientTape() as tape:
            tape.watch(X)
            y = tf.tanh(tf.linalg.matvec(W2, tf.tanh(tf.linalg.matvec(W1, X))))
        return tape.jacobian(y, X)
    return run


def peers(w1, w2, x):
    rows = []
    try:
        import jax
        import jax.numpy as jnp
        f = jax.jit(jax.jacrev(lambda v: jnp.tanh(w2 @ jnp.tanh(w1 @ v))))
        rows.append(("jax jit jacrev", lambda: f(x).block_until_ready()))
    except ImportError:
        pass
    try:
        import torch
        t1, t2, tx = torch.tensor(w1), torch.tensor(w2), torch.tensor(x)
        rows.append(("pytorch vectorize=True", lambda: torch.autograd.functional.jacobian(
            lambda v: torch.tanh(t2 @ torch.tanh(t1 @ v)), tx, vectorize=True)))
    except ImportError:
        pass
    try:
        import tensorflow as realtf
        rows.append(("tensorflow pfor", runtime_jacobian(realtf, w1, w2, x)))
    except ImportError:
        pass
    return rows


def main():
    import runtime as tf
    w1, w2, x = setup()
    run = runtime_jacobian(tf, w1, w2, x)
    run_mv = runtime_jacobian_matvec(tf, w1, w2, x)
    expected = analytic(w1, w2, x)
    np.testing.assert_allclose(run().numpy().reshape(N, N), expected, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(run_mv().numpy(), expected, rtol=1e-4, atol=1e-5)
    rows = [("numpy analytic", lambda: analytic(w1, w2, x)), ("adjoin tape.jacobian", run),
            ("adjoin, tf.linalg.matvec", run_mv)]
    rows += peers(w1, w2, x)
    times = best_of([fn for _, fn in rows])
    print(f"jacobian of tanh(W2 @ tanh(W1 @ x)), {N} -> {N}, float32, best of {REPEAT} (interleaved)")
    print(f"{'system':26s} {'ms':>9s} {'vs numpy analytic':>18s}")
    for (name, _), t in zip(rows, times):
        print(f"{name:26s} {t * 1e3:9.3f} {t / times[0]:17.1f}x")


if __name__ == "__main__":
    main()
