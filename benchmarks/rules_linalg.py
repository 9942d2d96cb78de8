"""Cost of the linalg and fft derivative rules relative to their primal.

For each primitive: the time of the VJP rule and of the JVP rule (called directly on numpy
arrays, the way the tape's backward sweep and generated code call them) divided by the time of
the numpy function itself, on one n x n (or length n*n for the FFTs) float64 input.  The
decomposition rules read the forward's outputs (``ans``), so a ratio near 1-3 means they add
a few matrix products; a rule that must recompute a decomposition the forward did not return
(eigvalsh, svd(compute_uv=False), pinv / lstsq, norm 'nuc' / 2) is marked.  Timings are the
best of interleaved repetitions (primal, vjp, jvp, primal, ...), so load on the machine shifts
all three together.  Run: python benchmarks/rules_linalg.py [n]
On a loaded machine OpenBLAS's worker threads can make one matrix product (a transposed operand,
as VJPs of products have) a thousand times slower than usual; run with OPENBLAS_NUM_THREADS=1 to
measure the rules rather than the thread pool.
"""

import sys
import time

import numpy as np

from runtime.rules import lookup
from runtime.rules.linalg.inverses import lstsq_solution

REPEAT = 15


def timed(fn):
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def interleaved(fns, repeat=REPEAT):
    """Best time of each function, measured round-robin."""
    for f in fns:
        f()
    best = [float("inf")] * len(fns)
    for _ in range(repeat):
        for i, f in enumerate(fns):
            best[i] = min(best[i], timed(f))
    return best


def cotangent(ans, rng):
    if isinstance(ans, tuple):
        return tuple(rng.standard_normal(np.shape(a)) for a in ans)
    return rng.standard_normal(np.shape(ans))


def cases(n, rng):
    a = rng.standard_normal((n, n)) + n ** 0.5 * np.eye(n)
    q = np.linalg.qr(rng.standard_normal((n, n)))[0]
    sym = np.matmul(q * np.linspace(1.0, 2.0, n), q.T)
    spd = np.matmul(a, a.T) + n * np.eye(n)
    tall = rng.standard_normal((2 * n, n))
    b = rng.standard_normal((n, 4))
    sig = rng.standard_normal(n * n)
    img = rng.standard_normal((n, n))
    return [
        ("inv", np.linalg.inv, (a,), {}, ""),
        ("det", np.linalg.det, (a,), {}, "inverts a"),
        ("slogdet", np.linalg.slogdet, (a,), {}, "inverts a"),
        ("solve", np.linalg.solve, (a, b), {}, ""),
        ("cholesky", np.linalg.cholesky, (spd,), {}, ""),
        ("eigh", np.linalg.eigh, (sym,), {}, ""),
        ("eigvalsh", np.linalg.eigvalsh, (sym,), {}, "recomputes the vectors"),
        ("eig (symmetric)", np.linalg.eig, (sym,), {}, ""),
        ("svd", np.linalg.svd, (tall,), {"full_matrices": False}, ""),
        ("svd values", np.linalg.svd, (tall,), {"compute_uv": False}, "recomputes the vectors"),
        ("qr", np.linalg.qr, (tall,), {}, ""),
        ("pinv", np.linalg.pinv, (tall,), {}, ""),
        ("lstsq", np.linalg.lstsq, (tall, rng.standard_normal((2 * n, 4))), {}, "svd with vectors"),
        ("lstsq x only", lstsq_solution, (tall, rng.standard_normal((2 * n, 4))), {}, "pinv + singular values"),
        ("norm fro", np.linalg.norm, (a,), {}, ""),
        ("norm nuc", np.linalg.norm, (a,), {"ord": "nuc"}, "recomputes the svd"),
        ("norm 2", np.linalg.norm, (a,), {"ord": 2}, "recomputes the svd"),
        ("matrix_power 5", np.linalg.matrix_power, (a, 5), {}, "5 terms"),
        ("multi_dot x4", np.linalg.multi_dot, ([a, a, a, a],), {}, ""),
        ("fft", np.fft.fft, (sig,), {}, ""),
        ("rfft", np.fft.rfft, (sig,), {}, ""),
        ("irfft", np.fft.irfft, (np.fft.rfft(sig),), {}, ""),
        ("fft2", np.fft.fft2, (img,), {}, ""),
        ("rfftn", np.fft.rfftn, (img,), {}, ""),
        ("irfftn", np.fft.irfftn, (np.fft.rfftn(img),), {}, ""),
    ]


def main(n):
    rng = np.random.default_rng(0)
    print(f"linalg / fft rules on {n} x {n} float64 inputs (FFTs: length {n * n} / {n} x {n}); "
          f"best of {REPEAT} interleaved runs")
    print(f"{'primitive':<18}{'primal ms':>11}{'vjp / primal':>14}{'jvp / primal':>14}  note")
    for name, fn, args, kwargs, note in cases(n, rng):
        rule = lookup(fn)
        ans = fn(*args, **kwargs)
        g = cotangent(ans, rng)
        t = rng.standard_normal(np.shape(args[0])) if not isinstance(args[0], list) else \
            [rng.standard_normal(np.shape(x)) for x in args[0]]
        primal, vjp, jvp = interleaved([
            lambda: fn(*args, **kwargs),
            lambda: rule.vjp(0)(g, ans, *args, **kwargs),
            lambda: rule.jvp(0)(t, ans, *args, **kwargs),
        ])
        print(f"{name:<18}{primal * 1e3:>11.3f}{vjp / primal:>14.1f}{jvp / primal:>14.1f}  {note}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 64)
