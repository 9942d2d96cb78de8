"""Gradients of scalar loops on plain Python floats.

1. The loop of issue 15, n = 1,000, called with a Python float::

       for i in range(n):
           x = x + 0.01 * (np.sin(x) * np.cos(x) - 0.1 * x)

   The generated gradient next to the user's own numpy primal, the same primal with ``math``,
   a hand-written adjoint (``math``, saving sin and cos on the way forward) and autograd; and
   the bytes the gradient keeps per iteration at n = 100,000 (tracemalloc peak of the gradient
   less that of the primal, per iteration).
2. A 10,000-iteration ``math.sin`` loop with respect to two parameters.

Times are the best of interleaved repetitions with the garbage collector paused.

    python benchmarks/scalar_loop.py
"""

import math

import timing  # noqa: F401  (one BLAS thread, before numpy)
from timing import interleaved, peak_bytes

import numpy as np  # noqa: E402

from transpiler import differentiate  # noqa: E402

N = 1000
N_MEMORY = 100_000


@differentiate
def loop(x, n):
    for i in range(n):
        x = x + 0.01 * (np.sin(x) * np.cos(x) - 0.1 * x)
    return x


def loop_math(x, n):
    for i in range(n):
        x = x + 0.01 * (math.sin(x) * math.cos(x) - 0.1 * x)
    return x


def loop_hand(x, n):
    """The adjoint a person writes: save sin and cos forward, multiply the chain backward."""
    saved = []
    push = saved.append
    for i in range(n):
        s = math.sin(x)
        c = math.cos(x)
        push(s)
        push(c)
        x = x + 0.01 * (s * c - 0.1 * x)
    pop = saved.pop
    g = 1.0
    for i in range(n):
        c = pop()
        s = pop()
        g = g * (1.0 + 0.01 * (c * c - s * s - 0.1))
    return g


def _autograd_loop():
    try:
        import autograd
        import autograd.numpy as anp
    except ImportError:
        return None

    def f(x, n):
        for i in range(n):
            x = x + 0.01 * (anp.sin(x) * anp.cos(x) - 0.1 * x)
        return x
    return autograd.grad(f)


def measure():
    """{name: seconds} for the issue's loop at N, the bytes saved per iteration at N_MEMORY,
    and the check that the gradients agree."""
    x = 0.3
    g, h = loop.grad(x, N), loop_hand(x, N)
    assert abs(g - h) <= 1e-9 * max(1.0, abs(h)), (g, h)
    names = ["numpy primal (user's f)", "math primal", "hand-written adjoint", "adjoin gradient"]
    fns = [lambda: loop(x, N), lambda: loop_math(x, N), lambda: loop_hand(x, N), lambda: loop.grad(x, N)]
    ag = _autograd_loop()
    if ag is not None:
        assert abs(ag(x, N) - h) <= 1e-9 * max(1.0, abs(h))
        names.append("autograd")
        fns.append(lambda: ag(x, N))
    times = dict(zip(names, interleaved(fns)))
    base = peak_bytes(lambda: loop(x, N_MEMORY))
    saved = {"adjoin gradient": (peak_bytes(lambda: loop.grad(x, N_MEMORY)) - base) / N_MEMORY,
             "hand-written adjoint": (peak_bytes(lambda: loop_hand(x, N_MEMORY)) - base) / N_MEMORY}
    return times, saved


def goal_rows(times, saved):
    hand = times["hand-written adjoint"]
    peers = f"autograd {times['autograd'] / hand:.0f}x" if "autograd" in times else ""
    return [
        ("scalar loop, n = 1,000, gradient / hand-written adjoint", "11x",
         times["adjoin gradient"] / hand, 1.3, "x", peers),
        ("scalar loop at 100,000 iterations: bytes saved per iteration", "238",
         saved["adjoin gradient"], 120, "B", f"hand-written {saved['hand-written adjoint']:.0f}"),
    ]


@differentiate(wrt=(0, 1))
def f(x, a):
    y = x
    for i in range(10000):
        y = math.sin(y) * a + 0.1 * y
    return y


def hand_written(x, a):
    ys = []
    y = x
    for i in range(10000):
        ys.append(y)
        y = math.sin(y) * a + 0.1 * y
    by, ba = 1.0, 0.0
    for i in range(10000):
        y = ys.pop()
        ba += math.sin(y) * by
        by = by * (a * math.cos(y) + 0.1)
    return by, ba


def main():
    times, saved = measure()
    hand = times["hand-written adjoint"]
    print(f"Issue 15's scalar loop, n = {N:,}, x a Python float: "
          "x = x + 0.01 * (np.sin(x) * np.cos(x) - 0.1 * x)")
    print(f"{'':28s}{'time':>11s}{'/ hand':>9s}{'/ numpy primal':>16s}")
    for name, t in times.items():
        print(f"{name:28s}{t * 1e3:8.3f} ms{t / hand:8.2f}x{t / times[names0(times)]:15.2f}x")
    print(f"saved per iteration at n = {N_MEMORY:,}: adjoin {saved['adjoin gradient']:.0f} bytes, "
          f"hand-written {saved['hand-written adjoint']:.0f} bytes")
    src = loop._t.get(0, False, floats=loop._t.floats((0.3, N), {})).source   # the variant f.grad ran
    pushes = [line.strip() for line in src.splitlines() if "push(" in line and "=" not in line]
    print("pushed per iteration:", "; ".join(pushes) or "nothing")

    x, a = 0.3, 0.9
    g, h = f.grad(x, a), hand_written(x, a)
    assert all(abs(p - q) <= 1e-9 * max(1.0, abs(q)) for p, q in zip(g, h)), (g, h)
    t_primal, t_grad, t_hand = interleaved([lambda: f(x, a), lambda: f.grad(x, a), lambda: hand_written(x, a)])
    print("\n10,000-iteration loop y = math.sin(y) * a + 0.1 * y, wrt (x, a)")
    for name, t in (("primal", t_primal), ("adjoin gradient", t_grad), ("hand-written adjoint", t_hand)):
        print(f"{name:28s}{t * 1e3:8.3f} ms{t / t_hand:8.2f}x hand{t / t_primal:8.2f}x primal")


def names0(times):
    return next(iter(times))


if __name__ == "__main__":
    main()
