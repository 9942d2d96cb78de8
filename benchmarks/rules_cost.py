"""Cost of derivative rules relative to their primal: time(VJP rule) / time(primitive).

Usage: python benchmarks/rules_cost.py [--n N] [--repeat R]

Each primitive runs on float64 inputs of about N elements; primal and rule are timed in
interleaved repetitions (the minimum of R rounds each), so machine load affects both alike.
A ratio far above ~3 marks a rule whose cost is out of proportion to its primal.
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
    return [
        ("np.sin", np.sin, (v,), {}),
        ("np.sum(axis=0)", np.sum, (m,), {"axis": 0}),
        ("np.std", np.std, (v,), {}),
        ("np.max", np.max, (v,), {}),
        ("np.prod", np.prod, (v[:50],), {}),
        ("np.cumsum", np.cumsum, (v,), {}),
        ("np.cumprod (no zeros)", np.cumprod, (v,), {}),
        ("np.cumprod (a zero)", np.cumprod, (np.concatenate([[0.0], v[:299]]),), {}),
        ("np.sort", np.sort, (v,), {}),
        ("np.partition", np.partition, (v, n // 2), {}),
        ("np.median", np.median, (v,), {}),
        ("np.quantile", np.quantile, (v, [0.1, 0.5, 0.9]), {}),
        ("np.nanmedian", np.nanmedian, (v,), {}),
        ("np.pad(reflect)", np.pad, (m, 3), {"mode": "reflect"}),
        ("np.tile", np.tile, (m, (2, 2)), {}),
        ("np.repeat", np.repeat, (v, 3), {}),
        ("np.roll", np.roll, (v, 7), {}),
        ("np.diff", np.diff, (v,), {}),
        ("np.trapezoid", np.trapezoid, (v,), {}),
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
        ans = fn(*fargs, **kwargs)
        g = np.ones_like(ans)
        vjp = rule.vjp(0)
        primal_t, rule_t = [], []
        for _ in range(args.repeat):          # interleaved
            primal_t.append(best(lambda: fn(*fargs, **kwargs), 3))
            rule_t.append(best(lambda: vjp(g, ans, *fargs, **kwargs), 3))
        p, r = min(primal_t), min(rule_t)
        rows.append((r / p, name, p, r))
    print(f"{'primitive':28s} {'primal':>10s} {'VJP rule':>10s} {'ratio':>7s}")
    for ratio, name, p, r in sorted(rows, reverse=True):
        print(f"{name:28s} {p * 1e6:9.1f}us {r * 1e6:9.1f}us {ratio:7.1f}")


if __name__ == "__main__":
    main()
