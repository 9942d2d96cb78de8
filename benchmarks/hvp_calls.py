"""Hessian-vector products through calls to user functions, against the same body written inline.

Each pair computes the same function once through callees (a layer called in a loop, a
recursion, a callee with a loop) and once written out inline; the table gives the time of
grad and of hvp (forward over reverse, the callees' generated pairs differentiated again)
for both, so the cost of going through the calls shows at second order.  One BLAS thread.

    python benchmarks/hvp_calls.py
"""

import os
import sys
import timeit

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from transpiler import grad, hvp  # noqa: E402

N = 200
rng = np.random.default_rng(0)
W = rng.normal(size=(N, N)) / np.sqrt(N)


def layer(h, x):
    return np.tanh(W @ h + x)


def rnn_calls(x):
    h = x
    for i in range(20):
        h = layer(h, x)
    return np.sum(h * h)


def rnn_inline(x):
    h = x
    for i in range(20):
        h = np.tanh(W @ h + x)
    return np.sum(h * h)


def power(x, n):
    if n <= 0:
        return 1.0 + 0.0 * x
    return np.sin(x) * power(x, n - 1)


def power_calls(x):
    return np.sum(power(x, 20))


def power_inline(x):
    p = 1.0 + 0.0 * x
    for i in range(20):
        p = np.sin(x) * p
    return np.sum(p)


def looped(x):
    s = x
    for i in range(20):
        s = np.tanh(W @ s) + x
    return s


def looped_calls(x):
    return np.sum(looped(x) ** 2)


def looped_inline(x):
    s = x
    for i in range(20):
        s = np.tanh(W @ s) + x
    return np.sum(s ** 2)


def best(stmt, number=20, repeat=7):
    return min(timeit.repeat(stmt, number=number, repeat=repeat)) / number


def main():
    x = rng.normal(size=N) * 0.3
    v = rng.normal(size=N)
    print(f"{'function':<24}{'grad (ms)':>10}{'hvp (ms)':>10}{'hvp/grad':>10}")
    for name, calls, inline in (("layer in loop", rnn_calls, rnn_inline),
                                ("recursion x20", power_calls, power_inline),
                                ("callee w/ loop", looped_calls, looped_inline)):
        for label, f in (("calls", calls), ("inline", inline)):
            g, h = grad(f), hvp(f)
            assert np.allclose(h(x, v), hvp(inline)(x, v), rtol=1e-8, atol=1e-10)
            tg, th = best(lambda: g(x)), best(lambda: h(x, v))
            print(f"{name + ' ' + label:<24}{tg * 1e3:>10.3f}{th * 1e3:>10.3f}{th / tg:>10.2f}")


if __name__ == "__main__":
    main()
