"""Logistic regression on 2 million rows that live on dask workers, trained with adjoin's gradient.

    python examples/distributed_training.py                       # a LocalCluster of 2 workers
    python examples/distributed_training.py --rows 200000 --steps 3
    python examples/distributed_training.py --scheduler tcp://scheduler:8786   # a real cluster

The rows are generated block by block on the workers (dask's random generator) and kept
there; each step sends the parameters out and gets one gradient back, added up in a tree on
the cluster.  The workers run the generated gradient from its source: they need numpy and
dask, not adjoin.
"""

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

FEATURES = 10


def loss(w, b, X, y):
    """Mean binary cross-entropy of a linear model, from the logits (no overflow)."""
    z = X @ w + b
    return np.mean(np.maximum(z, 0.0) + np.log1p(np.exp(-np.abs(z))) - y * z)


def make_data(rows, chunk, seed=0):
    """X and y as dask arrays: every block is drawn on the worker that computes it."""
    import dask.array as da
    rng = da.random.default_rng(seed)
    true_w = np.linspace(-1.0, 1.0, FEATURES)
    X = rng.standard_normal((rows, FEATURES), chunks=(chunk, FEATURES))
    noise = rng.standard_normal(rows, chunks=chunk)
    y = (X @ true_w + 0.25 + 0.5 * noise > 0).astype(np.float64)
    return X, y


def train(client, rows, steps, blocks=8, rate=2.0):
    """A few steps of gradient descent on ``rows`` rows in ``blocks`` blocks; returns the losses."""
    import dask
    from transpiler import distributed            # imported here: spawned workers re-run this
                                                  # file's top level, and need no adjoin
    X, y = make_data(rows, -(-rows // blocks))
    X, y = dask.persist(X, y)                     # generated on the workers, kept there
    dask.compute(X.sum(), y.sum())                # (wait for generation outside the timing)
    step = distributed.value_and_grad(loss, wrt=(0, 1), reduction="mean")
    w, b = np.zeros(FEATURES), 0.0
    losses = []
    print(f"{rows:,} rows x {FEATURES} features in {X.numblocks[0]} blocks on "
          f"{len(client.scheduler_info()['workers'])} workers")
    for i in range(steps):
        start = time.perf_counter()
        value, (gw, gb) = step(w, b, X, y)
        took = time.perf_counter() - start
        w, b = w - rate * gw, b - rate * gb
        losses.append(value)
        print(f"step {i}: loss {value:.6f}   {took * 1000:7.1f} ms")
    adjoin = client.run(eval, "[m for m in __import__('sys').modules if m.split('.')[0] in "
                              "('transpiler', 'runtime', 'astor')]")
    print("adjoin modules imported on the workers:", sorted(set(sum(adjoin.values(), []))) or "none")
    return losses


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=2_000_000)
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--scheduler", help="address of a running scheduler (default: a LocalCluster)")
    args = parser.parse_args(argv)
    from distributed import Client, LocalCluster
    start = time.perf_counter()
    if args.scheduler:
        client, cluster = Client(args.scheduler), None
    else:
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    try:
        losses = train(client, args.rows, args.steps)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    print(f"total {time.perf_counter() - start:.1f} s (cluster start-up included)")
    return losses


if __name__ == "__main__":
    main()
