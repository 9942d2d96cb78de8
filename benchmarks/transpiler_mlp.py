"""Gradient of a 2-layer MLP loss (784-256-10, batch 128, float64 and float32): transpiler vs
hand-written numpy backprop vs autograd (if installed), plus the time the transformation itself
takes.  In float32 every variant must keep float32 (a gradient computed in float64 is slower and
not what the user asked for).

    python benchmarks/transpiler_mlp.py

BLAS runs on one thread unless OPENBLAS_NUM_THREADS / OMP_NUM_THREADS say otherwise: on a busy
2-core machine threaded matrix products spin and every variant measured the same ~48 ms.
glibc malloc's mmap threshold is pinned (``timing.pin_malloc``): its dynamic threshold moved this
benchmark by up to 40% depending on what had run before.
"""

import time

import timing  # noqa: F401  (one BLAS thread before numpy loads it; malloc thresholds pinned)
from timing import interleaved

import numpy as np  # noqa: E402

from transpiler import grad  # noqa: E402
from transpiler.api import transform  # noqa: E402

from peers_tape import mlp_data as data, mlp_hand as hand_written  # noqa: E402,F401  (shared with the peers)


def loss(W1, b1, W2, b2, X, Y):
    h = np.tanh(X @ W1 + b1)
    logits = h @ W2 + b2
    m = np.max(logits, axis=1, keepdims=True)
    z = logits - m
    logp = z - np.log(np.sum(np.exp(z), axis=1, keepdims=True))
    return -np.sum(Y * logp) / X.shape[0]


def _check(got, want, dtype):
    tol = dict(rtol=1e-8, atol=1e-10) if dtype == np.float64 else dict(rtol=2e-3, atol=2e-5)
    for a, b in zip(got, want):
        assert a.dtype == b.dtype == dtype, (a.dtype, b.dtype, dtype)
        np.testing.assert_allclose(a, b, **tol)


def measure(dtype=np.float64, budget=3.0):
    """[(name, best seconds)]: hand-written first, then the general variant's generated code,
    the grad(f) wrapper (which runs the variant specialised on the arguments' ndim) and
    autograd (when installed), interleaved call by call (``timing.interleaved``)."""
    args = data(dtype)
    g = grad(loss, wrt=(0, 1, 2, 3))
    gen = g._t.get((0, 1, 2, 3), False)
    want = hand_written(*args)
    _check(gen.function(*args), want, dtype)
    _check(g(*args), want, dtype)

    names = ["hand-written numpy", "transpiler (general variant)", "transpiler via grad(f) wrapper"]
    variants = [hand_written, gen.function, g]
    try:
        import autograd
        import autograd.numpy as anp

        def aloss(W1, b1, W2, b2, X, Y):
            h = anp.tanh(X @ W1 + b1)
            logits = h @ W2 + b2
            m = anp.max(logits, axis=1, keepdims=True)
            z = logits - m
            logp = z - anp.log(anp.sum(anp.exp(z), axis=1, keepdims=True))
            return -anp.sum(Y * logp) / X.shape[0]

        ag = autograd.grad(aloss, argnum=(0, 1, 2, 3))
        got = ag(*args)
        assert all(a.dtype == dtype for a in got), [a.dtype for a in got]
        _check(got, want, dtype)
        names.append("autograd")
        variants.append(ag)
    except ImportError:
        pass
    rows = list(zip(names, interleaved([lambda fn=fn: fn(*args) for fn in variants], budget=budget)))
    if "autograd" not in names:
        rows.append(("autograd (not installed)", float("nan")))
    return rows


def goal_rows(by_dtype):
    out = []
    for dtype, rows in by_dtype.items():
        t = dict(rows)
        hand = t["hand-written numpy"]
        peers = f"autograd {t['autograd'] / hand:.2f}x" if "autograd" in t else ""
        name = np.dtype(dtype).name
        today, goal = {"float64": ("1.07x", 1.05), "float32": ("1.9x", 1.10)}[name]
        out.append((f"MLP 784-256-10 gradient / hand-written backprop, {name}", today,
                    t["transpiler via grad(f) wrapper"] / hand, goal, "x", peers))
    return out


def main():
    # the transformation itself (parse -> ... -> compile), no cache
    t_transform = []
    for _ in range(20):
        t = time.process_time()
        transform(loss, wrt=(0, 1, 2, 3))
        t_transform.append(time.process_time() - t)

    for dtype in (np.float64, np.float32):
        rows = measure(dtype)
        base = rows[0][1]
        print(f"MLP 784-256-10, batch 128, {np.dtype(dtype).name}: gradient w.r.t. W1, b1, W2, b2 "
              f"(numpy {np.__version__}; best of interleaved calls, process CPU time)")
        print(f"{'':32s}{'best ms':>10s}{'vs hand':>9s}")
        for name, best in rows:
            print(f"{name:32s}{best * 1e3:10.3f}{best / base:8.2f}x")
        print()
    print(f"transformation time: best {min(t_transform) * 1e3:.2f} ms, "
          f"median {float(np.median(t_transform)) * 1e3:.2f} ms (target < 20 ms)")


if __name__ == "__main__":
    main()
