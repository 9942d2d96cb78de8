"""Hessian-vector product of f(x) = sum(tanh(A @ x)) ** 2, x a 1,000-vector.

Generated gradient vs generated forward-over-reverse HVP, next to autograd (and JAX /
PyTorch when installed), all measured in this one run; the same for a 20-step tanh RNN (a
loop: its gradient saves on a stack, and the HVP carries tangents through the stack).  Also
prints the generated line count of grad, grad(grad) and grad(grad(grad)) for a 20-line
function and for the loop (which stays a loop at every order).  The goal rows of issue 15 put
the HVP next to the analytic one (three matrix-vector products), in float64 and float32; in
float32 the HVP must stay float32.  BLAS runs on one thread
unless OPENBLAS_NUM_THREADS / OMP_NUM_THREADS say otherwise: threaded matrix-vector products
on a busy machine made the ratios swing between 1x and 10x from run to run.

    python benchmarks/hvp.py
"""

import importlib.util
import os
import sys
import timeit

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")      # before numpy loads BLAS

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from transpiler import grad, hvp  # noqa: E402

from peers_tape import hvp_hand as analytic_hvp  # noqa: E402  (shared with the peers)

N = 1000
rng = np.random.default_rng(0)
A = rng.normal(size=(N, N)) / np.sqrt(N)
x = rng.normal(size=N)
v = rng.normal(size=N)


def f(x):
    return np.sum(np.tanh(A @ x)) ** 2


W = rng.normal(size=(300, 300)) / np.sqrt(300)
xr, vr = rng.normal(size=300), rng.normal(size=300)


def rnn(x):
    h = x
    for t in range(20):
        h = np.tanh(W @ h + x)
    return np.sum(h * h)


def hvp_rows(dtype):
    """(adjoin hvp, analytic hvp, autograd hvp or None) seconds at ``dtype``; checks the dtype."""
    Ad, xd, vd = A.astype(dtype), x.astype(dtype), v.astype(dtype)

    def fd_(x):
        return np.sum(np.tanh(Ad @ x)) ** 2
    h = hvp(fd_)
    got, want = h(xd, vd), analytic_hvp(Ad, xd, vd)
    assert got.dtype == want.dtype == dtype, (got.dtype, want.dtype, dtype)
    tol = 1e-8 if dtype == np.float64 else 2e-3
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * np.max(np.abs(want)))
    fns = [lambda: h(xd, vd), lambda: analytic_hvp(Ad, xd, vd)]
    if importlib.util.find_spec("autograd"):
        import autograd.numpy as anp
        from autograd import grad as agrad
        ga = agrad(lambda x: anp.sum(anp.tanh(anp.dot(Ad, x))) ** 2)
        hva = agrad(lambda x, v: anp.sum(ga(x) * v))
        fns.append(lambda: hva(xd, vd))
    from timing import interleaved
    out = interleaved(fns, budget=2.0)
    return out + [None] * (3 - len(out))


def goal_rows(by_dtype):
    out = []
    for dtype, (th, ta, tag) in by_dtype.items():
        name = np.dtype(dtype).name
        today, goal = {"float64": ("1.46x", 1.3), "float32": ("4.5x", 1.5)}[name]
        out.append((f"HVP of sum(tanh(A @ x)) ** 2, A 1000x1000 / analytic, {name}", today, th / ta, goal,
                    "x", f"autograd {tag / ta:.1f}x" if tag else ""))
    return out


def best(*fns, number=20, repeat=15):
    """Best time per call of each function, measured in turns so load spikes hit them alike."""
    times = [float("inf")] * len(fns)
    for _ in range(repeat):
        for k, fn in enumerate(fns):
            times[k] = min(times[k], timeit.timeit(fn, number=number) / number)
    return times if len(fns) > 1 else times[0]


def twenty_lines(x):
    a = np.sin(x) * x
    b = np.exp(-a * a)
    c = a + b * x
    d = np.tanh(c) * b
    e = d / (1.0 + c * c)
    f1 = np.log(1.0 + e * e)
    g = f1 * a - d
    h = np.sqrt(g * g + 1.0)
    i = h * np.cos(x)
    j = i + e * f1
    k = j * j - a
    m = np.sum(k * x)
    n = m * np.sum(j)
    o = n + np.sum(np.sin(i))
    p = o * 0.5 + np.sum(h * d)
    q = p * p
    r = q + np.sum(c * e)
    s = np.tanh(r)
    return s * r


def main():
    g = grad(f)
    h = hvp(f)
    fd = (g(x + 1e-6 * v) - g(x - 1e-6 * v)) / 2e-6
    assert np.allclose(h(x, v), fd, rtol=1e-4, atol=1e-4)
    tg, th = best(lambda: g(x), lambda: h(x, v))
    rows = [("adjoin grad", tg), ("adjoin hvp (fwd-over-rev)", th)]
    base = rows[0][1]

    if importlib.util.find_spec("autograd"):
        import autograd.numpy as anp
        from autograd import grad as agrad

        def fa(x):
            return anp.sum(anp.tanh(anp.dot(A, x))) ** 2

        ga = agrad(fa)
        hva = agrad(lambda x, v: anp.sum(ga(x) * v))      # reverse over reverse
        assert np.allclose(hva(x, v), fd, rtol=1e-4, atol=1e-4)
        tga, tha = best(lambda: ga(x), lambda: hva(x, v))
        rows += [("autograd grad", tga), ("autograd hvp (rev-over-rev)", tha)]
    if importlib.util.find_spec("jax"):
        import jax
        import jax.numpy as jnp
        jax.config.update("jax_enable_x64", True)
        Aj = jnp.asarray(A)

        def fj(x):
            return jnp.sum(jnp.tanh(Aj @ x)) ** 2
        gj = jax.jit(jax.grad(fj))
        hj = jax.jit(lambda x, v: jax.jvp(jax.grad(fj), (x,), (v,))[1])
        xj, vj = jnp.asarray(x), jnp.asarray(v)
        gj(xj).block_until_ready(), hj(xj, vj).block_until_ready()
        rows += [("jax grad (jit)", best(lambda: gj(xj).block_until_ready())),
                 ("jax hvp (jit)", best(lambda: hj(xj, vj).block_until_ready()))]
    if importlib.util.find_spec("torch"):
        import torch
        At = torch.tensor(A)

        def ft(x):
            return torch.sum(torch.tanh(At @ x)) ** 2
        xt, vt = torch.tensor(x), torch.tensor(v)
        rows += [("torch grad", best(lambda: torch.func.grad(ft)(xt))),
                 ("torch hvp", best(lambda: torch.func.jvp(torch.func.grad(ft), (xt,), (vt,))[1]))]

    print(f"f(x) = sum(tanh(A @ x)) ** 2, A {N}x{N}, float64, "
          f"BLAS threads: {os.environ['OPENBLAS_NUM_THREADS']}")
    print(f"{'':30s} {'time':>10s} {'/ adjoin grad':>14s}")
    for name, t in rows:
        print(f"{name:30s} {t * 1e3:8.3f} ms {t / base:13.2f}x")
    print(f"adjoin hvp / adjoin grad: {rows[1][1] / base:.2f}x (target < 4x)")
    print("\nHVP against the analytic one (3 matrix-vector products):")
    for dtype in (np.float64, np.float32):
        th, ta, tag = hvp_rows(dtype)
        extra = f", autograd {tag / ta:.2f}x" if tag else ""
        print(f"  {np.dtype(dtype).name}: adjoin {th * 1e3:.3f} ms, analytic {ta * 1e3:.3f} ms, "
              f"{th / ta:.2f}x{extra}")

    gr, hr = grad(rnn), hvp(rnn)
    fdr = (gr(xr + 1e-6 * vr) - gr(xr - 1e-6 * vr)) / 2e-6
    assert np.allclose(hr(xr, vr), fdr, rtol=1e-4, atol=1e-4)
    tg, th = best(lambda: gr(xr), lambda: hr(xr, vr))
    print(f"\nloop: 20-step tanh RNN, W 300x300: grad {tg * 1e3:.3f} ms, hvp {th * 1e3:.3f} ms, "
          f"hvp / grad: {th / tg:.2f}x")

    print("\ngenerated lines (code, without imports/comments):")
    print(f"  {'':16s} {'20-line function':>16s} {'RNN loop':>9s}")
    for name, order in (("grad", 1), ("grad∘grad", 2), ("grad∘grad∘grad", 3), ("hvp", 0)):
        counts = []
        for fn in (twenty_lines, rnn):
            d = hvp(fn) if order == 0 else fn
            for _ in range(order):
                d = grad(d)
            counts.append(len([ln for ln in d.source.splitlines()
                               if ln.strip() and not ln.lstrip().startswith(("#", "import ", "from "))]))
        print(f"  {name:16s} {counts[0]:16d} {counts[1]:9d}")


if __name__ == "__main__":
    main()
