"""``jit=True``: gradients compiled with numba, next to the hand-written adjoint.

1. Issue 15's scalar loop, n = 1,000, x a Python float::

       for i in range(n):
           x = x + 0.01 * (np.sin(x) * np.cos(x) - 0.1 * x)

   The jitted gradient, the plain (math-specialised) gradient and JAX's jit (where JAX is
   installed) over the hand-written adjoint of benchmarks/scalar_loop.py (``math``, saving sin
   and cos on the way forward).  Goal: jitted <= 0.25x.
2. The first call of the jitted gradient, in a fresh process: ``grad(loop, jit=True)`` and the
   first call (numba's import and compilation included), and the same with ``import transpiler``
   counted too.  Goal: <= 2 s.
3. An indexed loop over a 1,000-element array, ``s = s + (np.sin(x[i]) * x[i]) ** 2``.
4. Issue 26's cliffs, jitted over plain (both must compile, no JitFallbackWarning): the chain
   loop ``d = x[i + 1] - x[i]; e = e + k * (d - 1.0) ** 2`` at n = 2,000 (goal: >= 5x faster
   than plain) and the MLP 784-256-10 with ``np.max(z, axis=1, keepdims=True)`` (goal: no
   slower than plain).

Times are the best of interleaved repetitions (process CPU time, garbage collector paused);
the machine may be shared, so read ratios, not absolute times.

    python benchmarks/jit.py
"""

import os
import subprocess
import sys
import tempfile

import timing  # noqa: F401  (one BLAS thread, before numpy)
from timing import interleaved

import numpy as np  # noqa: E402

import scalar_loop  # noqa: E402
from transpiler import differentiate, grad  # noqa: E402

N = scalar_loop.N

FIRST_CALL = """
import time
t0 = time.perf_counter()
import numpy as np
from transpiler import grad
def loop(x, n):
    for i in range(n):
        x = x + 0.01 * (np.sin(x) * np.cos(x) - 0.1 * x)
    return x
t1, c1 = time.perf_counter(), time.process_time()
grad(loop, jit=True)(0.3, {n})
t2, c2 = time.perf_counter(), time.process_time()
print(t2 - t1, t2 - t0, c2 - c1)
"""


def first_call():
    """Seconds from grad(..., jit=True) to the first gradient: wall, wall from process start,
    and process CPU time (what a busy machine's other work does not inflate)."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    with tempfile.TemporaryDirectory() as tmp:      # a file: adjoin reads the function's source
        script = os.path.join(tmp, "first_call.py")
        with open(script, "w") as f:
            f.write(FIRST_CALL.format(n=N))
        out = subprocess.run([sys.executable, script], env=env, check=True, capture_output=True,
                             text=True).stdout.split()
    return float(out[0]), float(out[1]), float(out[2])


def _jax_loop():
    """JAX's jitted gradient of the loop (a fori_loop), or None without JAX."""
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        return None
    jax.config.update("jax_enable_x64", True)

    def f(x):
        return jax.lax.fori_loop(0, N, lambda i, x: x + 0.01 * (jnp.sin(x) * jnp.cos(x) - 0.1 * x), x)
    g = jax.jit(jax.grad(f))
    return lambda x: float(g(x))


@differentiate
def indexed(x):
    s = 0.0
    for i in range(len(x)):
        s = s + (np.sin(x[i]) * x[i]) ** 2
    return s


def chain(x, k):
    e = 0.0
    for i in range(len(x) - 1):
        d = x[i + 1] - x[i]
        e = e + k * (d - 1.0) ** 2
    return e


def mlp(W1, b1, W2, b2, X, Y):
    h = np.tanh(X @ W1 + b1)
    z = h @ W2 + b2
    m = np.max(z, axis=1, keepdims=True)
    e = np.exp(z - m)
    p = e / np.sum(e, axis=1, keepdims=True)
    return -np.sum(Y * np.log(p)) / X.shape[0]


def cliffs(budget=2.0):
    """{name: (jitted seconds, plain seconds)} for issue 26's chain loop and MLP; raises if
    either falls back to plain numpy."""
    import warnings
    from transpiler.jit import JitFallbackWarning
    rng = np.random.default_rng(0)
    x = np.cumsum(rng.random(2000))
    params = (rng.standard_normal((784, 256)) * 0.05, np.zeros(256), rng.standard_normal((256, 10)) * 0.05,
              np.zeros(10))
    X, Y = rng.standard_normal((128, 784)), np.eye(10)[rng.integers(0, 10, 128)]
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("error", JitFallbackWarning)
        for name, f, args, wrt in (("chain loop n = 2,000", chain, (x, 2.0), 0),
                                   ("MLP 784-256-10", mlp, (*params, X, Y), (0, 1, 2, 3))):
            jitted, plain = grad(f, wrt=wrt, jit=True), grad(f, wrt=wrt)
            a, b = jitted(*args), plain(*args)
            for u, v in zip(np.atleast_1d(a) if wrt == 0 else a, np.atleast_1d(b) if wrt == 0 else b):
                assert np.allclose(u, v, rtol=1e-10, atol=1e-12), name
            out[name] = tuple(interleaved([lambda: jitted(*args), lambda: plain(*args)], budget=budget))
    return out


def measure():
    """{name: seconds} for the scalar loop at N (each checked against the hand-written adjoint)."""
    x = 0.3
    jitted, plain = grad(scalar_loop.loop, jit=True), grad(scalar_loop.loop)
    hand = scalar_loop.loop_hand(x, N)
    for name, g in (("jit", jitted), ("plain", plain)):
        assert abs(g(x, N) - hand) <= 1e-12 * max(1.0, abs(hand)), (name, g(x, N), hand)
    names = ["hand-written adjoint", "adjoin jit=True", "adjoin (no jit)"]
    fns = [lambda: scalar_loop.loop_hand(x, N), lambda: jitted(x, N), lambda: plain(x, N)]
    jx = _jax_loop()
    if jx is not None:
        assert abs(jx(x) - hand) <= 1e-9 * max(1.0, abs(hand))
        names.append("JAX jit")
        fns.append(lambda: jx(x))
    return dict(zip(names, interleaved(fns)))


def main():
    times = measure()
    hand = times["hand-written adjoint"]
    print(f"Issue 15's scalar loop, n = {N:,}, x a Python float "
          f"(best of interleaved repetitions, process CPU time)")
    print(f"{'':24s}{'time':>12s}{'/ hand':>9s}")
    for name, t in times.items():
        print(f"{name:24s}{t * 1e6:9.1f} us{t / hand:8.3f}x")
    if "JAX jit" not in times:
        print("(JAX not installed: no JAX row)")
    compile_s, total_s, cpu_s = first_call()
    print(f"\nfirst call of grad(loop, jit=True), fresh process: {compile_s:.2f} s wall, {cpu_s:.2f} s CPU "
          f"({total_s:.2f} s wall counting `import transpiler`); goal <= 2 s")
    jit_ratio = times["adjoin jit=True"] / hand
    print(f"goal jit / hand-written <= 0.25x: {jit_ratio:.3f}x -> {'holds' if jit_ratio <= 0.25 else 'MISSED'}")

    print("\nissue 26's cliffs, jit=True over plain (both compiled, no fallback)")
    for name, (tj, tp) in cliffs().items():
        print(f"{name:24s} jit {tj * 1e6:9.1f} us  plain {tp * 1e6:9.1f} us  jit / plain {tj / tp:.3f}x")

    x = np.linspace(0.1, 1.0, 1000)
    jitted = grad(indexed, jit=True)
    assert np.allclose(jitted(x), indexed.grad(x), rtol=1e-12, atol=0)
    t_primal, t_plain, t_jit = interleaved([lambda: indexed(x), lambda: indexed.grad(x), lambda: jitted(x)])
    print(f"\nindexed loop s = s + (np.sin(x[i]) * x[i]) ** 2, n = {len(x):,}")
    for name, t in (("primal", t_primal), ("gradient (no jit)", t_plain), ("gradient jit=True", t_jit)):
        print(f"{name:24s}{t * 1e6:9.1f} us{t / t_primal:8.2f}x primal")


if __name__ == "__main__":
    main()
