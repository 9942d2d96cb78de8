"""Indexed reads in a loop: ``s = s + (np.sin(x[i]) * x[i]) ** 2`` over ``i < len(x)``.

The gradient's time over the primal's (the user's function as written) at n = 1,000 and
16,000.  An adjoint that adds a full-size array per read costs O(n) per iteration, so this
ratio grows with n; one accumulated in place stays flat.  Also a loop that writes ``y[i]``.
Best of interleaved repetitions, garbage collector paused, one BLAS thread.

    python benchmarks/indexed_loop.py
"""

import timing  # noqa: F401  (one BLAS thread, before numpy)
from timing import interleaved

import numpy as np  # noqa: E402

from transpiler import differentiate  # noqa: E402

SIZES = (1000, 16000)


@differentiate
def reads(x):
    s = 0.0
    for i in range(len(x)):
        s = s + (np.sin(x[i]) * x[i]) ** 2
    return s


def reads_hand(x):
    """The adjoint a person writes: one gradient array, each element written once."""
    g = np.empty_like(x)
    for i in range(len(x)):
        xi = x[i]
        si = np.sin(xi)
        u = si * xi
        g[i] = 2.0 * u * (np.cos(xi) * xi + si)
    return g


@differentiate
def writes(x):
    y = np.zeros_like(x)
    for i in range(len(x)):
        y[i] = x[i] * x[i]
    return np.sum(y)


def _autograd():
    try:
        import autograd
        import autograd.numpy as anp
    except ImportError:
        return None

    def f(x):
        s = 0.0
        for i in range(len(x)):
            s = s + (anp.sin(x[i]) * x[i]) ** 2
        return s
    return autograd.grad(f)


def measure(n, peers=True):
    """{name: seconds} for the read loop at size n (and the write loop, as "writes ...")."""
    x = np.random.default_rng(0).normal(size=n)
    g = reads.grad(x)
    np.testing.assert_allclose(g, reads_hand(x), rtol=1e-10, atol=1e-12)
    names = ["primal", "adjoin gradient", "hand-written adjoint", "writes: primal", "writes: adjoin gradient"]
    fns = [lambda: reads(x), lambda: reads.grad(x), lambda: reads_hand(x), lambda: writes(x),
           lambda: writes.grad(x)]
    np.testing.assert_allclose(writes.grad(x), 2 * x, rtol=1e-12)
    ag = _autograd() if peers else None
    if ag is not None and n <= 1000:          # autograd's own reads are quadratic too
        np.testing.assert_allclose(ag(x), g, rtol=1e-10, atol=1e-12)
        names.append("autograd")
        fns.append(lambda: ag(x))
    return dict(zip(names, interleaved(fns, budget=2.0)))


def goal_rows(by_size):
    out = []
    for n, times in by_size.items():
        peers = f"autograd {times['autograd'] / times['primal']:.0f}x" if "autograd" in times else ""
        today = {1000: "19x", 16000: "61x"}.get(n, "")
        out.append((f"indexed reads in a loop, n = {n:,}: gradient / primal", today,
                    times["adjoin gradient"] / times["primal"], 4.0, "x", peers))
    return out


def main():
    for n in SIZES:
        times = measure(n)
        print(f"\nn = {n:,}: s = s + (np.sin(x[i]) * x[i]) ** 2;  y[i] = x[i] * x[i]")
        for name, t in times.items():
            base = times["writes: primal" if name.startswith("writes") else "primal"]
            print(f"  {name:26s}{t * 1e3:10.3f} ms{t / base:9.2f}x primal")


if __name__ == "__main__":
    main()
