"""What ``out[i] = ...`` in a loop costs in a generated gradient.

Each write is a new version of the array (``setitem`` copies it), so a loop of n writes does
O(n) work per write in the primal and in the adjoint; what the adjoint keeps per iteration is
only the few scalars it reads (never a copy of the array).  For comparison: the same loop
accumulating into a scalar (reads ``x[i]`` only), and the plain primal.

    python benchmarks/subscript_writes.py
"""

import os
import sys
import time
import tracemalloc

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from transpiler import differentiate  # noqa: E402


def writes(x):
    out = np.zeros(len(x))
    for i in range(len(x)):
        out[i] = np.sin(x[i]) * x[i]
    return np.sum(out * out)


def reads(x):
    s = 0.0
    for i in range(len(x)):
        s = s + (np.sin(x[i]) * x[i]) ** 2
    return s


def best(fn, x, repeat=3):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn(x)
        times.append(time.perf_counter() - t)
    return min(times)


def peak_bytes(fn, x):
    tracemalloc.start()
    fn(x)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def main():
    print(f"{'n':>6} {'loop':>7} {'primal':>10} {'gradient':>10} {'x primal':>9} {'peak/iter':>10}")
    for fn in (writes, reads):
        grad = differentiate(fn).grad
        for n in (1000, 4000, 16000):
            x = np.linspace(0.1, 1.0, n)
            tp, tg = best(fn, x), best(grad, x)
            per = (peak_bytes(grad, x) - 8 * n) / n      # minus the gradient array itself
            print(f"{n:>6} {fn.__name__:>7} {tp * 1e3:>8.2f}ms {tg * 1e3:>8.2f}ms {tg / tp:>8.1f}x {per:>8.0f} B")


if __name__ == "__main__":
    main()
