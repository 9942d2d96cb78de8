"""Shared measuring for the benchmarks of issue 15: one BLAS thread, interleaved repetitions,
the garbage collector paused, best-of.

Import this module before numpy (it sets the BLAS thread variables, which BLAS reads when
numpy loads it): on a busy 2-core machine threaded BLAS spins, and every variant measures the
same.  ``interleaved`` runs the variants in alternating blocks, so a slow spell of the machine
lands on all of them alike; the best of many runs is the least disturbed one.
"""

import gc
import os
import sys
import time
import tracemalloc

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")      # before numpy loads BLAS

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

__all__ = ["interleaved", "peak_bytes", "blas_threads"]


def blas_threads():
    return os.environ["OPENBLAS_NUM_THREADS"]


def interleaved(variants, rounds=5, budget=0.05):
    """Best seconds per call of each zero-argument callable in ``variants``.

    Each round runs every variant in turn, as many calls as fit in about ``budget`` seconds
    (at least one), with the garbage collector paused (as timeit does: a collection of the
    transformer's ASTs landing in one variant's block is noise, not that variant's cost).
    """
    counts = []
    for fn in variants:               # warm up and size the blocks
        t = time.perf_counter()
        fn()
        once = time.perf_counter() - t
        counts.append(max(1, min(1000, int(budget / max(once, 1e-7)))))
    best = [float("inf")] * len(variants)
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        for _ in range(rounds):
            for k, fn in enumerate(variants):
                n = counts[k]
                t = time.perf_counter()
                for _ in range(n):
                    fn()
                best[k] = min(best[k], (time.perf_counter() - t) / n)
    finally:
        if was:
            gc.enable()
    return best


def peak_bytes(fn):
    """Peak bytes Python allocates while ``fn()`` runs (tracemalloc)."""
    gc.collect()
    tracemalloc.start()
    try:
        fn()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak
