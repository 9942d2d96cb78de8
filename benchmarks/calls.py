"""What a call to a user function costs in a generated gradient.

* a helper called 1,000 times in a loop, against the same loop with the helper's body
  written inline (the call goes through the helper's own generated forward/backward pair);
* a recursion 200 deep (``power(x, n)``), against its loop form;
* ``vjp`` now (one forward that saves; the pullback runs only the backward) against the
  old way (the primal for the value, then the whole gradient again in the pullback).

    python benchmarks/calls.py
"""

import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from transpiler import differentiate, vjp  # noqa: E402

N = 1000


def step(s, x):
    return np.sin(s) * x + 0.1 * s


def looped_calls(x):
    s = x
    for i in range(1000):
        s = step(s, x)
    return np.sum(s)


def looped_inline(x):
    s = x
    for i in range(1000):
        s = np.sin(s) * x + 0.1 * s
    return np.sum(s)


def power(x, n):
    if n <= 0:
        return 1.0 + 0.0 * x
    return x * power(x, n - 1) * 0.999


def power_loop(x, n):
    y = 1.0 + 0.0 * x
    for i in range(n):
        y = x * y * 0.999
    return y


def best(fn, repeat=5, number=3):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - t) / number)
    return min(times)


def main():
    x = np.linspace(0.1, 0.9, 8)
    d_calls, d_inline = differentiate(looped_calls), differentiate(looped_inline)
    assert np.allclose(d_calls.grad(x), d_inline.grad(x))
    tc, ti = best(lambda: d_calls.grad(x)), best(lambda: d_inline.grad(x))
    print(f"1,000 calls in a loop:   gradient {tc * 1e3:7.2f} ms, inlined body {ti * 1e3:7.2f} ms "
          f"({tc / ti:.2f}x, {(tc - ti) / N * 1e6:.1f} us per call)")

    d_rec, d_loop = differentiate(power), differentiate(power_loop)
    assert np.allclose(d_rec.grad(x, 200), d_loop.grad(x, 200))
    tr, tl = best(lambda: d_rec.grad(x, 200)), best(lambda: d_loop.grad(x, 200))
    print(f"recursion 200 deep:      gradient {tr * 1e3:7.2f} ms, loop form    {tl * 1e3:7.2f} ms "
          f"({tr / tl:.2f}x); generated source {len(d_rec.source.splitlines())} lines for any depth")

    def split_vjp():
        value, pullback = vjp(looped_inline, x)
        return pullback(1.0)

    def old_vjp():                      # what vjp did before the split pair
        value = looped_inline(x)
        return d_inline.grad(x)

    ts, to = best(split_vjp), best(old_vjp)
    print(f"vjp + pullback:          split pair {ts * 1e3:7.2f} ms, primal + full gradient "
          f"{to * 1e3:7.2f} ms ({to / ts:.2f}x faster)")


if __name__ == "__main__":
    main()
