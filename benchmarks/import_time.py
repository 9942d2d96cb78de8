"""Whole-process import time of ``runtime`` and ``transpiler`` next to numpy's.

Each statement runs in a fresh interpreter, all interleaved so machine load hits them alike;
medians of REPEAT runs, wall-clock and CPU time.  Run: python benchmarks/import_time.py [repeat]
Goals (benchmarks/goals.py): ``import runtime`` within numpy + 30 ms, ``import transpiler`` within
numpy + 60 ms of process wall time, median of 9 alternating runs.
"""

import os
import statistics
import subprocess
import sys
import time

REPEAT = 21
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STATEMENTS = [
    ("python -c pass", "pass"),
    ("import numpy", "import numpy"),
    ("import runtime", "import runtime"),
    ("import runtime; runtime.keras", "import runtime; runtime.keras"),
    ("import transpiler", "import transpiler"),
]


def run_once(code):
    """(wall seconds, CPU seconds) of one fresh interpreter running ``code``."""
    env = dict(os.environ, PYTHONPATH=ROOT)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as users run: compiled bytecode cached
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", code], env=env, cwd=ROOT)  # this checkout
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"{code!r} failed")
    return wall, usage.ru_utime + usage.ru_stime


def goal_rows(repeat=9):
    """The goal table's rows: ms of process wall time over ``python -c "import numpy"``, medians of
    ``repeat`` runs alternating the three statements."""
    codes = {"numpy": "import numpy", "runtime": "import runtime", "transpiler": "import transpiler"}
    for code in codes.values():         # warm-up: bytecode caches
        run_once(code)
    walls = {name: [] for name in codes}
    for _ in range(repeat):
        for name, code in codes.items():
            walls[name].append(run_once(code)[0])
    median = {name: statistics.median(w) for name, w in walls.items()}
    return [("import runtime: process wall time over import numpy", "106 ms",
             (median["runtime"] - median["numpy"]) * 1e3, 30.0, "ms", f"median of {repeat}"),
            ("import transpiler: process wall time over import numpy", "257 ms",
             (median["transpiler"] - median["numpy"]) * 1e3, 60.0, "ms", f"median of {repeat}")]


def main():
    repeat = int(sys.argv[1]) if len(sys.argv) > 1 else REPEAT
    times = {name: [] for name, _ in STATEMENTS}
    for _, code in STATEMENTS:  # warm-up: writes the bytecode caches
        run_once(code)
    for _ in range(repeat):
        for name, code in STATEMENTS:
            times[name].append(run_once(code))
    wall = {name: statistics.median(t[0] for t in ts) for name, ts in times.items()}
    cpu = {name: statistics.median(t[1] for t in ts) for name, ts in times.items()}
    print(f"fresh interpreters, median of {repeat} interleaved runs ({sys.executable})")
    print("CPU time (user + sys) is the steadier column on a loaded machine")
    print(f"{'statement':32s} {'wall ms':>8s} {'vs numpy':>9s} {'CPU ms':>8s} {'vs numpy':>9s}")
    for name, _ in STATEMENTS:
        print(f"{name:32s} {wall[name] * 1e3:8.1f} {(wall[name] - wall['import numpy']) * 1e3:+9.1f} "
              f"{cpu[name] * 1e3:8.1f} {(cpu[name] - cpu['import numpy']) * 1e3:+9.1f}")


if __name__ == "__main__":
    main()
