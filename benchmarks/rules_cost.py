"""Cost of derivative rules relative to their primal: time(VJP rule) / time(primitive), and the
same for the JVP rule.

Usage: python benchmarks/rules_cost.py [--n N] [--repeat R]

Each primitive runs on float64 inputs of about N elements; primal and rules are timed in
interleaved repetitions (the minimum of R rounds each), so machine load affects all alike.
A ratio far above ~3 marks a rule whose cost is out of proportion to its primal; the few above
10 and why are listed in docs/benchmarks.md ("The cost of the rules").
On a loaded machine OpenBLAS's worker threads can make one matrix product (a transposed operand,
as VJPs of products have) a thousand times slower than usual; run with OPENBLAS_NUM_THREADS=1 to
measure the rules rather than the thread pool.
"""

import argparse
import time

import numpy as np

from runtime.rules import lookup


def cases(n):
    rng = np.random.default_rng(0)
    side = int(round(n ** 0.5))
    v = rng.uniform(0.5, 2.0, n)
    m = rng.uniform(0.5, 2.0, (side, side))
    spd = m @ m.T + side * np.eye(side)
    ones = np.exp(rng.normal(0.0, 0.01, n))         # running products stay finite (no inf / NaN timings)
    return [
        ("np.sin", np.sin, (v,), {}),
        ("np.sum(axis=0)", np.sum, (m,), {"axis": 0}),
        ("np.std", np.std, (v,), {}),
        ("np.max", np.max, (v,), {}),
        ("np.prod", np.prod, (ones,), {}),
        ("np.cumsum", np.cumsum, (v,), {}),
        ("np.cumprod (no zeros)", np.cumprod, (ones,), {}),
        ("np.cumprod (a zero)", np.cumprod, (np.concatenate([ones[:n // 2], [0.0], ones[n // 2 + 1:]]),), {}),
        ("np.nancumprod", np.nancumprod, (np.where(np.arange(n) % 97 == 0, np.nan, ones),), {}),
        ("np.cumulative_prod", getattr(np, "cumulative_prod", np.cumprod), (np.reshape(ones[:side * side], (side, side)),),
         {"axis": 1}),
        ("np.sort", np.sort, (v,), {}),
        ("np.partition", np.partition, (v, n // 2), {}),
        ("np.median", np.median, (v,), {}),
        ("np.quantile", np.quantile, (v, [0.1, 0.5, 0.9]), {}),
        ("np.nanmedian", np.nanmedian, (np.where(np.arange(n) % 97 == 0, np.nan, v),), {}),
        ("np.nanquantile(axis=1)", np.nanquantile, (np.where(m > 1.9, np.nan, m), [0.25, 0.75]), {"axis": 1}),
        ("np.percentile(axis=0)", np.percentile, (m, 40.0), {"axis": 0}),
        ("np.ptp(axis=1)", np.ptp, (m,), {"axis": 1}),
        ("np.pad(reflect)", np.pad, (m, 3), {"mode": "reflect"}),
        ("np.tile", np.tile, (m, (2, 2)), {}),
        ("np.repeat", np.repeat, (v, 3), {}),
        ("np.roll", np.roll, (v, 7), {}),
        ("np.diff", np.diff, (v,), {}),
        ("np.trapezoid", getattr(np, "trapezoid", np.diff), (v,), {}),
        ("np.einsum('ij,jk->ik')", np.einsum, ("ij,jk->ik", m, m), {}),
        ("np.linalg.norm(axis=1, ord=3)", np.linalg.norm, (m,), {"axis": 1, "ord": 3}),
        ("np.cross", np.cross, (v[: n // 3 * 3].reshape(-1, 3), v[1: n // 3 * 3 + 1].reshape(-1, 3)), {}),
        ("np.take_along_axis", np.take_along_axis, (m, np.argsort(m, axis=1), 1), {}),
        ("np.tensordot", np.tensordot, (m, m, 1), {}),
        ("np.kron", np.kron, (m[:10, :10], m[:10, :10]), {}),
        ("np.dot", np.dot, (m, m), {}),
        ("np.convolve", np.convolve, (v, v[:32]), {}),
        ("np.interp", np.interp, (v, np.sort(v[:100]), v[:100]), {}),
        ("np.linspace", np.linspace, (v[:10], v[10:20], 50), {}),
        ("np.linalg.inv", np.linalg.inv, (spd,), {}),
        ("np.linalg.cholesky", np.linalg.cholesky, (spd,), {}),
        ("np.gradient", np.gradient, (v,), {}),
        ("np.unique", np.unique, (v,), {}),
    ]


def best(fn, repeat):
    """The fastest of ``repeat`` single calls (BLAS thread start-up and load show up as outliers)."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10000)
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args(argv)
    rows = []
    for name, fn, fargs, kwargs in cases(args.n):
        rule = lookup(fn)
        k = 1 if isinstance(fargs[0], str) else 0           # einsum: the first operand
        ans = fn(*fargs, **kwargs)
        g = np.ones_like(ans)
        t = np.ones_like(fargs[k])
        vjp, jvp = rule.vjp(k), rule.jvp(k)
        primal_t, vjp_t, jvp_t = [], [], []
        with np.errstate(all="ignore"):
            for _ in range(args.repeat):          # interleaved
                primal_t.append(best(lambda: fn(*fargs, **kwargs), 3))
                vjp_t.append(best(lambda: vjp(g, ans, *fargs, **kwargs), 3))
                jvp_t.append(best(lambda: jvp(t, ans, *fargs, **kwargs), 3))
        p, r, f = min(primal_t), min(vjp_t), min(jvp_t)
        rows.append((r / p, f / p, name, p, r))
    print(f"{'primitive':32s} {'primal':>10s} {'VJP rule':>10s} {'VJP/primal':>11s} {'JVP/primal':>11s}")
    for ratio, jratio, name, p, r in sorted(rows, reverse=True):
        print(f"{name:32s} {p * 1e6:9.1f}us {r * 1e6:9.1f}us {ratio:11.1f} {jratio:11.1f}")


if __name__ == "__main__":
    main()
