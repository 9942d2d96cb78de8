"""Shared measuring for the benchmarks of issue 15: one BLAS thread, glibc malloc's thresholds
pinned (``pin_malloc``), interleaved repetitions, the garbage collector paused, best-of, in
process CPU time.

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



def pin_malloc(threshold=64 << 20):
    """Fix glibc malloc's mmap and trim thresholds for this process (no-op elsewhere).

    By default glibc serves a block above 128 KB (a 128x256 float64 array is 256 KB) with its
    own mmap, and raises that threshold the first time such a block is freed; when it has
    moved, and whether the heap top is returned to the system (trimmed) in between, depends on
    the order of earlier allocations.  A fresh mapping costs a page fault per 4 KB touched, so
    the same gradient measured 40% apart depending on what ran before it.  Pinned, every
    variant allocates from the heap and reuses freed blocks, as a long training loop does.
    """
    import ctypes
    import ctypes.util
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name)
        mallopt = libc.mallopt
    except (OSError, AttributeError, TypeError):
        return False
    M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
    return bool(mallopt(M_MMAP_THRESHOLD, threshold)) and bool(mallopt(M_TRIM_THRESHOLD, 2 * threshold))


PINNED = pin_malloc()

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

__all__ = ["interleaved", "paired", "peak_bytes", "blas_threads", "pin_malloc"]


def blas_threads():
    return os.environ["OPENBLAS_NUM_THREADS"]


def interleaved(variants, rounds=None, budget=1.0, block=3e-4, clock=time.process_time):
    """Best seconds per call of each zero-argument callable in ``variants``, in process CPU time
    (``clock``): on a machine shared with other work, wall time also counts the turns the
    scheduler gives the others, and a block of calls long enough to be interrupted every time
    (a gradient over 16,000 elements) would look slower than a short one.

    Each round runs every variant in turn, one block of calls lasting about ``block`` seconds
    (a slow variant: one call to settle in, then two timed one by one; see ``_SETTLE``), with
    the garbage collector paused (as timeit does: a collection of the
    transformer's ASTs landing in one variant's block is noise, not that variant's cost).
    Short blocks and many rounds (about ``budget`` seconds per variant, or ``rounds``) give the
    best-of a good chance of blocks the machine's other work did not interrupt.
    """
    counts, once = [], []
    for fn in variants:               # warm up and size the blocks
        t = time.perf_counter()
        fn()
        dt = max(time.perf_counter() - t, 1e-7)
        once.append(dt)
        counts.append(max(1, min(10000, int(block / dt))))
    if rounds is None:
        rounds = max(5, min(200, int(budget / max(c * o for c, o in zip(counts, once)))))
    best = [float("inf")] * len(variants)
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        for _ in range(rounds):
            for k, fn in enumerate(variants):
                n = counts[k]
                if n < _SETTLE:         # slow calls: time each, after one that settles in
                    fn()
                    for _ in range(2):
                        t = clock()
                        fn()
                        best[k] = min(best[k], clock() - t)
                    continue
                t = clock()
                for _ in range(n):
                    fn()
                best[k] = min(best[k], (clock() - t) / n)
    finally:
        if was:
            gc.enable()
    return best


_SETTLE = 4
"""Calls slower than a quarter of a block are timed one by one, after one untimed call: the
first call after another variant's inherits its memory state (freed blocks of other sizes, a
cache full of other arrays), which measured up to 10% either way on the MLP gradient depending
on which variant ran before it."""


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


def paired(variants, rounds=15, block=2e-3, clock=time.process_time):
    """``(median seconds per call of each variant, [median over rounds of variant_k / the last
    variant, for each k but the last])``: the last variant is the reference.  Each round runs
    every variant for one block of calls (about ``block`` seconds, sized on a warm-up call),
    back to back, garbage collector paused; the ratio is taken within the round, so a slow
    spell of the machine lands on both sides of it (absolute times: ``interleaved``'s best)."""
    import statistics
    counts = []
    for fn in variants:
        fn()
        t = time.perf_counter()
        fn()
        counts.append(max(1, min(10000, int(block / max(time.perf_counter() - t, 1e-7)))))
    per = [[] for _ in variants]
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        for _ in range(rounds):
            for k, fn in enumerate(variants):
                n = counts[k]
                t = clock()
                for _ in range(n):
                    fn()
                per[k].append((clock() - t) / n)
    finally:
        if was:
            gc.enable()
    ratios = [statistics.median(a / b for a, b in zip(per[k], per[-1])) for k in range(len(variants) - 1)]
    return [statistics.median(p) for p in per], ratios
