"""A 1,000-op function inside a GradientTape: recorded op by op vs recorded as one transpiled op.

    python benchmarks/interop.py [--ops 1000] [--size 16] [--repeat 20]

Both variants run the same numpy-written function on the same runtime Variables inside a
``tf.GradientTape`` and call ``tape.gradient``; the times are forward + backward, best of
``repeat``.  "op by op" is the plain function (numpy's protocols record each of its ops on
the tape); "transpiled" is the same function under ``@differentiate`` (one recorded op
whose backward is the generated adjoint).  Generation happens once, before timing.
"""

import argparse
import linecache
import time

import numpy as np

import runtime as tf
from transpiler import differentiate

STEPS = [  # each line is 2-3 primitive ops on the running value h
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


def time_it(fn, x, w, repeat):
    best = float("inf")
    grads = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        with tf.GradientTape() as tape:
            y = fn(x, w)
        grads = tape.gradient(y, [x, w])
        best = min(best, time.perf_counter() - t0)
    return best, y, grads


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ops", type=int, default=1000)
    p.add_argument("--size", type=int, default=16)
    p.add_argument("--repeat", type=int, default=20)
    a = p.parse_args(argv)

    plain, n_ops = make_function(a.ops)
    t0 = time.perf_counter()
    transpiled = differentiate(plain, wrt=(0, 1))
    rng = np.random.default_rng(0)
    x = tf.Variable(rng.normal(size=a.size) * 0.5)
    w = tf.Variable(rng.normal(size=a.size) * 0.5)
    transpiled(x, w)  # first call under no tape: nothing generated yet for the recorded op
    with tf.GradientTape() as tape:
        warm = transpiled(x, w)
    tape.gradient(warm, [x, w])
    gen_time = time.perf_counter() - t0

    t_tape, y1, g1 = time_it(plain, x, w, a.repeat)
    t_gen, y2, g2 = time_it(transpiled, x, w, a.repeat)
    for u, v in zip(g1, g2):
        np.testing.assert_allclose(u.numpy(), v.numpy(), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(y1.numpy(), y2.numpy(), rtol=1e-12)

    print(f"{n_ops} primitive ops on float64 vectors of {a.size}, forward + tape.gradient, "
          f"best of {a.repeat}")
    print(f"{'variant':<32}{'time (ms)':>12}")
    print(f"{'op by op on the tape':<32}{t_tape * 1e3:>12.2f}")
    print(f"{'one transpiled op':<32}{t_gen * 1e3:>12.2f}")
    print(f"ratio (op by op / transpiled): {t_tape / t_gen:.1f}x   (target >= 10x)")
    print(f"one-time generation of the gradient: {gen_time * 1e3:.0f} ms; gradients agree")
    return t_tape / t_gen


if __name__ == "__main__":
    main()
