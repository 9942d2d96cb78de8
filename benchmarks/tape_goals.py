"""Issue 26's rows: the tape next to hand-written numpy, the transpiler's MLP in blocks of
back-to-back calls, the JIT cliffs and hvp through an indexed loop.  Every ratio is the median of
per-round ratios (``timing.paired``: each round times every variant once, back to back, so a
slow spell of the shared machine lands on a round's variants alike); the references run in this
process.  The peers (PyTorch, JAX, TensorFlow) run the same workloads in their side venvs, in a
subprocess of this run (``peers_tape.py``), each against its own hand-written reference.

    python benchmarks/tape_goals.py          # the rows, and the peers where their venvs exist
"""

import json
import os
import subprocess
import sys

import timing  # noqa: F401  (one BLAS thread, malloc pinned, before numpy)
from timing import interleaved, paired

import numpy as np  # noqa: E402

import peers_tape as work  # noqa: E402  (the workloads, shared with the peers' subprocess)

PEER_VENVS = {"torch": "/work/venvs/peers-torch", "jax": "/work/venvs/peers-jax", "tf": "/work/venvs/peers-tf"}


def tape_rows(rounds=15):
    """{row name: value} for the tape's workloads (per-op microseconds, ratios over hand-written)."""
    import runtime as tf
    out = {}
    step, ref = work.tape_ops(tf)
    t_step, t_np = interleaved([step, ref])      # an absolute time: the least disturbed block
    out["ops"] = t_step / work.N_OPS * 1e6
    out["ops numpy"] = t_np / work.N_OPS * 1e6
    for dtype in (np.float64, np.float32):
        name = np.dtype(dtype).name
        run, hand = work.tape_mlp(tf, dtype)
        out[f"mlp {name}"] = paired([run, hand], rounds=rounds)[1][0]
        run, hand = work.tape_hvp(tf, dtype)
        out[f"hvp {name}"] = paired([run, hand], rounds=rounds)[1][0]
    run, hand = work.tape_jacobian(tf)
    out["jacobian"] = paired([run, hand], rounds=rounds)[1][0]
    return out


def transpiler_rows(rounds=15):
    """The transpiler's MLP gradient in blocks of 10 back-to-back calls over hand-written in
    blocks; the JIT cliffs; hvp over grad through an indexed loop."""
    import jit
    import transpiler_mlp
    from transpiler import grad, hvp
    out = {}
    for dtype in (np.float64, np.float32):
        args = transpiler_mlp.data(dtype)
        g = grad(transpiler_mlp.loss, wrt=(0, 1, 2, 3))
        transpiler_mlp._check(g(*args), transpiler_mlp.hand_written(*args), dtype)

        def block(fn, args=args):
            return lambda: [fn(*args) for _ in range(10)]
        out[f"blocks {np.dtype(dtype).name}"] = paired([block(g), block(transpiler_mlp.hand_written)],
                                                       rounds=rounds)[1][0]
    for name, (tj, tp) in jit.cliffs(budget=1.0).items():
        out[f"jit {name}"] = tj / tp
    h, gi = hvp(jit.indexed), grad(jit.indexed)
    for n in (10_000, 40_000):
        x, v = np.linspace(0.1, 1.0, n), np.ones(n)
        out[f"hvp indexed {n}"] = paired([lambda: h(x, v), lambda: gi(x)], rounds=5)[1][0]
    return out


def peer_rows(timeout=900):
    """{library: {row: value}} from each peer's venv (missing venvs and failures are left out,
    with the reason under "error")."""
    out = {}
    here = os.path.dirname(os.path.abspath(__file__))
    for lib, venv in PEER_VENVS.items():
        python = os.path.join(venv, "bin", "python")
        if not os.path.exists(python):
            continue
        env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1",
                   XLA_FLAGS="--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1",
                   TF_NUM_INTRAOP_THREADS="1", TF_NUM_INTEROP_THREADS="1", TF_CPP_MIN_LOG_LEVEL="3",
                   PYTHONPATH=here)
        try:
            done = subprocess.run([python, os.path.join(here, "peers_tape.py"), lib], env=env, timeout=timeout,
                                  capture_output=True, text=True)
            out[lib] = json.loads(done.stdout.strip().splitlines()[-1]) if done.returncode == 0 else \
                {"error": (done.stderr.strip().splitlines() or ["?"])[-1]}
        except (subprocess.TimeoutExpired, ValueError, IndexError) as e:
            out[lib] = {"error": type(e).__name__}
    return out


def goal_rows(tape, trans, peers):
    """Rows for goals.py: (name, issue's number, now, goal, unit, peers)."""
    def peer(key, fmt="{:.2f}x"):
        said = [f"{lib} {fmt.format(p[key])}" for lib, p in peers.items() if key in p]
        return ", ".join(said)
    torch_ops = peers.get("torch", {}).get("ops")
    rows = [("200 tiny ops + sum, tape fwd+bwd, us per op", "4.7", tape["ops"], 2.5, "us",
             peer("ops", "{:.2f} us") + f"; numpy fwd alone {tape['ops numpy']:.2f} us")]
    rows.append(("  the same over PyTorch's per-op time", "0.6x",
                 tape["ops"] / torch_ops if torch_ops else None, 0.5, "x",
                 "" if torch_ops else "PyTorch venv missing"))
    for name in ("float64", "float32"):
        rows.append((f"tape MLP 784-256-10 gradient / hand-written, {name}",
                     {"float64": "1.9x", "float32": "1.25x"}[name], tape[f"mlp {name}"], 1.25, "x",
                     peer(f"mlp {name}")))
    for name in ("float64", "float32"):
        rows.append((f"tape HVP (nested tapes) / hand-written, {name}", "2.2x", tape[f"hvp {name}"], 1.8, "x",
                     peer(f"hvp {name}")))
    rows.append(("tape.jacobian 100x100 / analytic", "2.58x", tape["jacobian"], 2.0, "x", peer("jacobian")))
    for name in ("float64", "float32"):
        rows.append((f"transpiler MLP gradient in blocks of 10 calls / hand-written, {name}",
                     {"float64": "1.10x", "float32": "1.09x"}[name], trans[f"blocks {name}"], 1.05, "x",
                     peer(f"blocks {name}")))
    rows.append(("jit=True chain loop n=2,000 / plain (compiles)", "fallback",
                 trans["jit chain loop n = 2,000"], 0.2, "x", ""))
    rows.append(("jit=True MLP 784-256-10 / plain (compiles)", "fallback", trans["jit MLP 784-256-10"], 1.0, "x", ""))
    for n in (10_000, 40_000):
        rows.append((f"hvp / grad through an indexed loop, n={n:,}", {10_000: "14x", 40_000: "34x"}[n],
                     trans[f"hvp indexed {n}"], 5.0, "x", ""))
    return rows


def main():
    tape = tape_rows()
    trans = transpiler_rows()
    peers = peer_rows()
    print(json.dumps({"tape": tape, "transpiler": trans, "peers": peers}, indent=1))


if __name__ == "__main__":
    main()
