"""Issue 15's goal table, every row measured in this one run (one BLAS thread, glibc malloc's
mmap threshold pinned, interleaved repetitions, garbage collector paused, best of, process CPU
time): the workload, the number the issue recorded, today's number on this machine, the goal,
and whether it holds.  Peers print where installed (autograd and numba in the project's venvs;
JAX and PyTorch are not installed there).

    python benchmarks/goals.py            # the whole table (about a minute)
    python benchmarks/goals.py --quick    # fewer repetitions, no n = 16,000 row
    python benchmarks/goals.py --no-peers # without the peers' subprocesses

Issue 26's rows (tape_goals.py) are medians of per-round ratios, the peers (PyTorch, JAX,
TensorFlow) measured in the same run from their side venvs (peers_tape.py in a subprocess).

Each row comes from the benchmark script named in the table, which prints the details.
"""

import sys

import timing
from timing import PINNED, blas_threads

import numpy as np  # noqa: E402

import hvp  # noqa: E402
import import_time  # noqa: E402
import indexed_loop  # noqa: E402
import scalar_loop  # noqa: E402
import straight_line  # noqa: E402
import transpiler_mlp  # noqa: E402

del timing


def jit_row():
    import importlib.util
    if importlib.util.find_spec("numba") is None:
        return [("scalar loop with jit=True / hand-written (first call <= 2 s)", "-", None, 0.25, "x",
                 "numba not installed")]
    from transpiler import grad
    try:
        g = grad(scalar_loop.loop, jit=True)
    except TypeError:
        return [("scalar loop with jit=True / hand-written (first call <= 2 s)", "-", None, 0.25, "x",
                 "jit=True not implemented")]
    import time
    t, c = time.perf_counter(), time.process_time()
    g(0.3, scalar_loop.N)          # numba compiles here (benchmarks/jit.py: in a fresh process)
    first, cpu = time.perf_counter() - t, time.process_time() - c
    tg, th = scalar_loop.interleaved([lambda: g(0.3, scalar_loop.N),
                                      lambda: scalar_loop.loop_hand(0.3, scalar_loop.N)])
    return [("scalar loop with jit=True / hand-written (first call <= 2 s)", "-", tg / th, 0.25, "x",
             f"first call {cpu:.2f} s CPU, {first:.2f} s wall")]


def main(quick=False, no_peers=False):
    rows = []
    times, saved = scalar_loop.measure()
    scalar, memory = scalar_loop.goal_rows(times, saved)
    rows.append(scalar)
    rows += jit_row()
    budget = 1.0 if quick else 3.0
    rows += transpiler_mlp.goal_rows({d: transpiler_mlp.measure(d, budget=budget)
                                      for d in (np.float64, np.float32)})
    rows += hvp.goal_rows({d: hvp.hvp_rows(d) for d in (np.float64, np.float32)})
    line_times = straight_line.measure()
    per_statement = straight_line.transform_time(200, repeat=2 if quick else 3) / 200
    line, line_np, transform = straight_line.goal_rows(line_times, per_statement)
    rows += [line, line_np, memory, transform]
    sizes = indexed_loop.SIZES[:1] if quick else indexed_loop.SIZES
    rows += indexed_loop.goal_rows({n: indexed_loop.measure(n) for n in sizes})
    rows += import_time.goal_rows(5 if quick else 9)
    # issue 26: medians of per-round ratios (tape_goals.py); the peers from their side venvs
    import tape_goals
    rounds = 7 if quick else 15
    tape, trans = tape_goals.tape_rows(rounds), tape_goals.transpiler_rows(rounds)
    peers = {} if no_peers else tape_goals.peer_rows()
    rows += tape_goals.goal_rows(tape, trans, peers)
    failed = {lib: p["error"] for lib, p in peers.items() if "error" in p}

    print(f"Issue 15 and 26 goals (numpy {np.__version__}, BLAS threads: {blas_threads()}, "
          f"malloc thresholds {'pinned' if PINNED else 'NOT pinned'}, best of interleaved repetitions)")
    width = max(len(r[0]) for r in rows)
    print(f"{'workload':{width}s}  {'issue':>7s}  {'now':>9s}  {'goal':>9s}  holds  peers")
    held = 0
    for name, today, now, goal, unit, peers in rows:
        fmt = {"x": "{:.2f}x", "B": "{:.0f} B", "ms": "{:.2f} ms", "us": "{:.2f} us"}[unit]
        shown = "-" if now is None else fmt.format(now)
        ok = now is not None and now <= goal
        held += ok
        print(f"{name:{width}s}  {today:>7s}  {shown:>9s}  {'<= ' + fmt.format(goal):>9s}  "
              f"{'yes' if ok else 'no':5s}  {peers}")
    print(f"{held} of {len(rows)} goals hold")
    if failed:
        print(f"peers that failed: {failed}")


if __name__ == "__main__":
    main(quick="--quick" in sys.argv, no_peers="--no-peers" in sys.argv)
