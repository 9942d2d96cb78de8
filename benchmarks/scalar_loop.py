"""Gradient of a 10,000-iteration scalar loop (plain Python floats and ``math``).

Compares the primal, the transpiler's generated gradient, a hand-written adjoint (the
same save-on-the-forward-pass strategy a person would write), and autograd if installed.
Also reports how many bytes the generated gradient keeps per iteration for the adjoint.
``f`` carries no annotations: called with Python floats, ``f.grad`` runs a variant
specialised on them (no broadcasting bookkeeping).

    python benchmarks/scalar_loop.py
"""

import math
import os
import sys
import time
import tracemalloc

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from transpiler import differentiate  # noqa: E402

N = 10_000


@differentiate(wrt=(0, 1))
def f(x, a):
    y = x
    for i in range(10000):
        y = math.sin(y) * a + 0.1 * y
    return y


def hand_written(x, a):
    ys = []
    y = x
    for i in range(N):
        ys.append(y)
        y = math.sin(y) * a + 0.1 * y
    by, ba = 1.0, 0.0
    for i in range(N):
        y = ys.pop()
        ba += math.sin(y) * by
        by = by * (a * math.cos(y) + 0.1)
    return by, ba


def best(fn, *args, repeat=7, number=5):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn(*args)
        times.append((time.perf_counter() - t0) / number)
    return min(times)


def peak_bytes(fn, *args):
    tracemalloc.start()
    fn(*args)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def main():
    x, a = 0.3, 0.9
    g = f.grad(x, a)
    h = hand_written(x, a)
    assert all(abs(p - q) <= 1e-9 * max(1.0, abs(q)) for p, q in zip(g, h)), (g, h)
    rows = [("primal", best(f, x, a)), ("transpiler grad", best(f.grad, x, a)),
            ("hand-written adjoint", best(hand_written, x, a))]
    try:
        import autograd
        import autograd.numpy as anp

        def f_ag(x, a):
            y = x
            for i in range(N):
                y = anp.sin(y) * a + 0.1 * y
            return y

        ag = autograd.grad(f_ag, argnum=(0, 1)) if _takes_tuple(autograd) else autograd.grad(f_ag)
        got = ag(x, a)
        got = got if isinstance(got, tuple) else (got,)
        assert abs(got[0] - g[0]) < 1e-9
        rows.append(("autograd", best(ag, x, a, repeat=3, number=1)))
    except ImportError:
        rows.append(("autograd", None))
    primal = rows[0][1]
    hand = rows[2][1]
    print(f"Gradient of a {N:,}-iteration scalar loop (plain floats, math.sin), wrt (x, a)")
    print(f"{'':24s}{'time':>12s}{'x primal':>10s}{'x hand':>9s}")
    for name, t in rows:
        if t is None:
            print(f"{name:24s}{'not installed':>12s}")
            continue
        print(f"{name:24s}{t * 1e3:9.2f} ms{t / primal:9.2f}x{t / hand:8.2f}x")
    gen_peak = peak_bytes(f.grad, x, a) - peak_bytes(f, x, a)
    hand_peak = peak_bytes(hand_written, x, a) - peak_bytes(f, x, a)
    print(f"saved for the adjoint: {gen_peak / N:.0f} bytes/iteration (hand-written: {hand_peak / N:.0f})")
    src = f._t.get((0, 1), False, floats=f._t.floats((x, a), {})).source   # the variant f.grad ran
    pushes = [line.strip() for line in src.splitlines() if "push(" in line and "=" not in line]
    print("pushed per iteration:", "; ".join(pushes))


def _takes_tuple(autograd):
    import inspect
    return "argnum" in inspect.signature(autograd.grad).parameters


if __name__ == "__main__":
    main()
