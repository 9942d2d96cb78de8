"""Checkpointed loops: peak memory and time of a gradient under a memory budget.

The loop of issue 16, ``x = x + 0.001 * np.sin(x) * np.cos(x[::-1])`` on 64 elements, run
100,000 times.  Without a budget the gradient keeps every trip's values; with budgets of 1/5,
1/20 and 1/100 of that it keeps snapshots of ``x`` and recomputes.  Peak memory is
tracemalloc's peak during one gradient call (less what was allocated before it), for the first
call (sizes not known yet: a quarter of the budget for snapshots) and the second (the size of a
trip's saved values learned from the first); time is the best of interleaved repetitions (the
machine is shared: every budget is timed in each round).

    python benchmarks/checkpointing.py [--trips 100000] [--rounds 3]
"""

import argparse
import os
import sys
import time
import tracemalloc

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from transpiler import grad  # noqa: E402


def f(x, n):
    for i in range(n):
        x = x + 0.001 * np.sin(x) * np.cos(x[::-1])
    return np.sum(x)


def peak(fn, *args):
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        out = fn(*args)
        return tracemalloc.get_traced_memory()[1] - before, out
    finally:
        tracemalloc.stop()


def mb(n):
    return f"{n / 1e6:8.2f} MB"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trips", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    x = np.linspace(0.0, 1.0, 64)
    n = args.trips

    plain = grad(f)
    base, reference = peak(plain, x, n)
    rows = [("none", None, plain)]
    for frac in (5, 20, 100):
        budget = base // frac
        rows.append((f"1/{frac}", budget, grad(f, memory_budget=budget)))

    peaks, again, same = {}, {}, {}
    for label, budget, g in rows:
        peaks[label], out = peak(g, x, n)
        again[label], out2 = peak(g, x, n)
        same[label] = np.array_equal(out, reference) and np.array_equal(out2, reference)
    times = {label: [] for label, _, _ in rows}
    for _ in range(args.rounds):
        for label, _, g in rows:
            t0 = time.perf_counter()
            g(x, n)
            times[label].append(time.perf_counter() - t0)

    t0 = min(times["none"])
    print(f"gradient of {n:,} trips of x = x + 0.001 * np.sin(x) * np.cos(x[::-1]), 64 float64 elements")
    print(f"(best of {args.rounds} interleaved rounds; peak = tracemalloc peak during the call)\n")
    print(f"{'budget':>8} {'bytes':>12} {'peak, 1st':>11} {'/budget':>8} {'peak, 2nd':>11} {'/budget':>8} "
          f"{'time':>8} {'time ratio':>11} {'same grad':>10}")
    for label, budget, _ in rows:
        r1 = "" if budget is None else f"{peaks[label] / budget:8.2f}"
        r2 = "" if budget is None else f"{again[label] / budget:8.2f}"
        print(f"{label:>8} {budget if budget else '-':>12} {mb(peaks[label]):>11} {r1:>8} {mb(again[label]):>11} "
              f"{r2:>8} {min(times[label]):7.2f}s {min(times[label]) / t0:10.2f}x {str(same[label]):>10}")


if __name__ == "__main__":
    main()
