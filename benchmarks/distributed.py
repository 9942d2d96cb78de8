"""What a data-parallel gradient costs: transpiler.distributed against the single-process gradient.

The logistic loss of examples/distributed_training.py on the same rows, three ways:

* single process: ``value_and_grad`` on numpy arrays in this process;
* a LocalCluster with 1 worker process, and one with 2 (one thread each), the rows persisted
  on the workers in blocks, ``distributed.value_and_grad(..., reduction="mean")``.

The three are timed in turn, repetition after repetition (the machine is shared: interleaving
spreads the noise over all three), and the median is reported.

Bytes per call, from dask's own counters (settled for 0.3 s after each call, so the clean-up
messages count too): out = client -> scheduler (the graph, with the parameters) + scheduler ->
workers (tasks) + worker -> worker (the parameters to the second worker, partial gradients of
the tree reduction); back = workers -> scheduler (task reports) + scheduler -> client + the
pickled result the client gathers.

    python benchmarks/distributed.py [--rows 1000000] [--blocks 8] [--repeat 7]
"""

import argparse
import os
import pickle
import statistics
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[0] = ROOT              # not benchmarks/: this file's name would hide the distributed package
sys.path.insert(1, os.path.join(ROOT, "examples"))

from distributed_training import FEATURES, loss, make_data  # noqa: E402

def counters(client):
    """Bytes sent so far: (client->scheduler, scheduler->workers, worker->worker, workers->scheduler,
    scheduler->clients), from the byte counts of dask's batched streams and transfer logs."""
    time.sleep(0.3)                                  # let batched messages of the last call go out
    to_workers, to_clients = client.run_on_scheduler(lambda dask_scheduler: (
        sum(c.byte_count for c in dask_scheduler.stream_comms.values()),
        sum(c.byte_count for c in dask_scheduler.client_comms.values())))
    workers = client.run(lambda dask_worker: (sum(e["total"] for e in dask_worker.transfer_incoming_log),
                                              dask_worker.batched_stream.byte_count))
    return np.array([client.scheduler_comm.byte_count, to_workers, sum(w[0] for w in workers.values()),
                     sum(w[1] for w in workers.values()), to_clients])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--blocks", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args(argv)

    import dask
    from distributed import Client, LocalCluster

    from transpiler import distributed, value_and_grad

    chunk = -(-args.rows // args.blocks)
    X, y = make_data(args.rows, chunk)
    Xn, yn = dask.compute(X, y, scheduler="threads")          # the same rows, in this process
    w, b = np.linspace(-0.5, 0.5, FEATURES), 0.1

    single = value_and_grad(loss, wrt=(0, 1))
    clusters = {}
    for workers in (1, 2):
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster, set_as_default=False)
        with client.as_current():
            data = dask.persist(X, y)
            dask.compute(data[0].sum(), data[1].sum())
        clusters[workers] = (cluster, client, data,
                             distributed.value_and_grad(loss, wrt=(0, 1), reduction="mean"))

    want_value, (want_w, want_b) = single(w, b, Xn, yn)
    times = {"single": [], 1: [], 2: [], "sum1": [], "sum2": []}
    sent = {1: [], 2: []}
    result_bytes = {}
    for rep in range(args.repeat + 1):             # the first round warms up (generation, scatter)
        start = time.perf_counter()
        single(w, b, Xn, yn)
        if rep:
            times["single"].append(time.perf_counter() - start)
        for workers, (cluster, client, (Xd, yd), step) in clusters.items():
            with client.as_current():
                before = counters(client)
                start = time.perf_counter()
                value, (gw, gb) = step(w, b, Xd, yd)
                took = time.perf_counter() - start
                after = counters(client)
                start = time.perf_counter()
                dask.compute(Xd.sum(), yd.sum())       # dask's own cost for a reduction of these blocks
                summed = time.perf_counter() - start
            assert abs(value - want_value) <= 1e-10 * abs(want_value)
            np.testing.assert_allclose(gw, want_w, rtol=1e-10)
            if rep:
                times[workers].append(took)
                times[f"sum{workers}"].append(summed)
                sent[workers].append(after - before)
            result_bytes[workers] = len(pickle.dumps((value, (gw, gb))))

    step = clusters[2][3]
    call = step.last_call_bytes
    med = statistics.median
    print(f"logistic loss, {args.rows:,} rows x {FEATURES} features, {args.blocks} blocks; "
          f"median of {args.repeat} interleaved calls (machine shared: expect noise)\n")
    base = med(times["single"])
    print(f"{'':26}{'ms/call':>9}{'vs single':>11}{'out B':>12}{'back B':>10}   "
          "(client>sched, sched>workers, worker>worker | workers>sched, sched>client, result)")
    print(f"{'single process':26}{base * 1e3:9.1f}{1.0:11.2f}{'-':>12}{'-':>10}")
    for workers in (1, 2):
        t = med(times[workers])
        parts = [int(med([b[i] for b in sent[workers]])) for i in range(5)] + [result_bytes[workers]]
        print(f"{f'distributed, {workers} worker(s)':26}{t * 1e3:9.1f}{t / base:11.2f}{sum(parts[:3]):12,d}"
              f"{sum(parts[3:]):10,d}   ({', '.join(f'{p:,}' for p in parts[:3])} | "
              f"{', '.join(f'{p:,}' for p in parts[3:])})")
    for workers in (1, 2):
        t = med(times[f"sum{workers}"])
        print(f"{f'  dask X.sum(), y.sum(), {workers}w':26}{t * 1e3:9.1f}{t / base:11.2f}"
              "   (the same blocks: dask's own floor per call)")
    name, source = step.module()
    print(f"\nThe pickled call (parameters, fixed arguments) is {call:,} B.  The generated module's "
          f"source ({len(source):,} B)\nis scattered to each worker once per client (the warm-up round), "
          "not per call.")
    for cluster, client, _, _ in clusters.values():
        client.close()
        cluster.close()


if __name__ == "__main__":
    main()
