"""Whole-process import time of ``runtime`` next to numpy's (issue 13: within numpy + 50 ms).

Each statement runs in a fresh interpreter, the three interleaved so machine load hits them alike;
medians of REPEAT runs.  Run: python benchmarks/import_time.py [repeat]
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
]


def run_once(code):
    env = dict(os.environ, PYTHONPATH=ROOT)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as users run: compiled bytecode cached
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, env=env)
    return time.perf_counter() - t0


def main():
    repeat = int(sys.argv[1]) if len(sys.argv) > 1 else REPEAT
    times = {name: [] for name, _ in STATEMENTS}
    for _, code in STATEMENTS:  # warm-up: writes the bytecode caches
        run_once(code)
    for _ in range(repeat):
        for name, code in STATEMENTS:
            times[name].append(run_once(code))
    med = {name: statistics.median(ts) for name, ts in times.items()}
    base = med["import numpy"]
    print(f"whole-process times, median of {repeat} interleaved runs ({sys.executable})")
    print(f"{'statement':32s} {'median ms':>10s} {'vs numpy ms':>12s}")
    for name, _ in STATEMENTS:
        print(f"{name:32s} {med[name] * 1e3:10.1f} {(med[name] - base) * 1e3:+12.1f}")


if __name__ == "__main__":
    main()
