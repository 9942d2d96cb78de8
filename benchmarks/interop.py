"""A 1,000-op function inside a GradientTape: recorded op by op vs recorded as one transpiled op.

    python benchmarks/interop.py [--ops 1000] [--sizes scalar,1,16,256] [--repeat 30]

Both variants run the same numpy-written function on the same runtime Variables inside a
``tf.GradientTape`` and call ``tape.gradient``; the times are forward + backward, best of
3 blocks of ``repeat`` runs, the blocks of the variants alternating.  "op by op" is
the plain function (numpy's protocols record each of its ops on the tape); "transpiled" is
the same function under ``@differentiate`` (one recorded op whose backward is the generated
adjoint).  Generation happens once, before timing.

The last two columns are the floor for the transpiled op: the generated forward and backward
on numpy arrays, which is what the recorded op runs in a first-order sweep.  The transpiled
op cannot beat numpy's own per-call cost, so the ratio is
(tape overhead + numpy work) / (numpy work): large for scalars, where a numpy call is cheap,
and small for arrays, where numpy's ~0.3 us per call dominates both variants.
"""

import argparse
import linecache
import time

import numpy as np

import runtime as tf
from transpiler import differentiate

STEPS = [  # each line is 2-4 primitive ops on the running value h
    "h = np.sin(h) * w",
    "h = np.tanh(h + x)",
    "h = h * h - 0.5",
    "h = np.exp(-h) * 0.3 + x",
    "h = np.cos(h * w)",
]


def make_function(n_ops):
    """A straight-line function of (x, w) with about ``n_ops`` primitive operations."""
    lines, ops, k = [], 0, 0
    per_line = [2, 2, 2, 4, 2]
    while ops < n_ops:
        lines.append(STEPS[k % len(STEPS)])
        ops += per_line[k % len(STEPS)]
        k += 1
    lines.append("return np.sum(h)")
    ops += 1
    source = "def chain(x, w):\n    h = x\n" + "".join(f"    {line}\n" for line in lines)
    filename = "<benchmark-chain>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {"np": np}
    exec(compile(source, filename, "exec"), namespace)
    return namespace["chain"], ops


def recorded(fn, x, w):
    """Forward + backward under a tape; returns (value, gradients)."""
    with tf.GradientTape() as tape:
        y = fn(x, w)
    return y, tape.gradient(y, [x, w])


def best_of(repeat, variants, rounds=3):
    """Best time of each zero-argument callable: ``rounds`` blocks of ``repeat`` back-to-back
    runs per variant, the blocks alternating so machine load hits every variant alike (runs
    within a block are consecutive, as in a training loop, so each variant runs warm)."""
    best = [float("inf")] * len(variants)
    for _ in range(rounds):
        for k, run in enumerate(variants):
            for _ in range(repeat):
                t0 = time.perf_counter()
                run()
                best[k] = min(best[k], time.perf_counter() - t0)
    return best


def inputs(size, rng):
    if size == "scalar":
        return np.float64(rng.normal() * 0.5), np.float64(rng.normal() * 0.5)
    n = int(size)
    return rng.normal(size=n) * 0.5, rng.normal(size=n) * 0.5


def measure(plain, transpiled, size, repeat):
    rng = np.random.default_rng(0)
    xv, wv = inputs(size, rng)
    x, w = tf.Variable(xv), tf.Variable(wv)
    y1, g1 = recorded(plain, x, w)
    y2, g2 = recorded(transpiled, x, w)   # warm: the recorded op's entry is built here
    np.testing.assert_allclose(y1.numpy(), y2.numpy(), rtol=1e-12)
    for u, v in zip(g1, g2):
        np.testing.assert_allclose(u.numpy(), v.numpy(), rtol=1e-9, atol=1e-12)
    pair = transpiled._t.get((0, 1), False, mode="split")   # what the recorded op runs
    xn, wn = x.numpy(), w.numpy()
    _, saved = pair.forward(xn, wn)
    return best_of(repeat, [lambda: recorded(plain, x, w), lambda: recorded(transpiled, x, w),
                            lambda: pair.forward(xn, wn), lambda: pair.backward(saved, 1.0)])


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ops", type=int, default=1000)
    p.add_argument("--sizes", default="scalar,1,16,256",
                   help="comma-separated vector lengths; 'scalar' means 0-d values")
    p.add_argument("--size", help="one size (shorthand for --sizes SIZE)")
    p.add_argument("--repeat", type=int, default=30)
    a = p.parse_args(argv)
    sizes = [a.size] if a.size else a.sizes.split(",")

    plain, n_ops = make_function(a.ops)
    t0 = time.perf_counter()
    transpiled = differentiate(plain, wrt=(0, 1))
    gen_time = time.perf_counter() - t0

    print(f"{n_ops} primitive ops on float64 values, forward + tape.gradient, best of 3 x {a.repeat}; "
          "times in ms")
    head = (f"{'size':>7} {'op by op':>10} {'transpiled':>11} {'ratio':>7}   "
            f"{'numpy fwd':>10} {'numpy bwd':>10}")
    print(head)
    ratios = {}
    for size in sizes:
        t_tape, t_gen, t_fwd, t_bwd = measure(plain, transpiled, size, a.repeat)
        ratios[size] = t_tape / t_gen
        shape = "()" if size == "scalar" else f"({size},)"
        print(f"{shape:>7} {t_tape * 1e3:>10.2f} {t_gen * 1e3:>11.2f} {t_tape / t_gen:>6.1f}x   "
              f"{t_fwd * 1e3:>10.2f} {t_bwd * 1e3:>10.2f}")
    print(f"target: transpiled >= 10x faster; generating the gradient took {gen_time * 1e3:.0f} ms; "
          "gradients agree (rtol 1e-9)")
    return ratios


if __name__ == "__main__":
    main()
