"""Issue 26's workloads, written once for every library that runs them, with their hand-written
numpy references.  Needs only numpy at import, so a peer's venv can run it:

    /work/venvs/peers-torch/bin/python benchmarks/peers_tape.py torch    # prints one JSON line

(tape_goals.py does that for each peer venv.)  The tape workloads take a ``tf`` module: adjoin's
runtime and TensorFlow run the same code.
"""

import json
import sys

import timing  # noqa: F401  (one BLAS thread, malloc pinned, before numpy)
from timing import interleaved, paired

import numpy as np  # noqa: E402

N_OPS = 200


# --- references ------------------------------------------------------------------------------

def chain(x, w):
    """N_OPS elementwise ops alternating multiply and add (any array type with * and +)."""
    y = x
    for _ in range(N_OPS // 2):
        y = y * w
        y = y + x
    return y


def mlp_data(dtype=np.float64):
    rng = np.random.default_rng(0)
    W1 = rng.normal(scale=0.05, size=(784, 256))
    b1 = np.zeros(256)
    W2 = rng.normal(scale=0.05, size=(256, 10))
    b2 = np.zeros(10)
    X = rng.normal(size=(128, 784))
    Y = np.eye(10)[rng.integers(0, 10, size=128)]
    return tuple(a.astype(dtype) for a in (W1, b1, W2, b2, X, Y))


def mlp_hand(W1, b1, W2, b2, X, Y):
    """The MLP's softmax cross-entropy gradient, backpropagated by hand."""
    n = X.shape[0]
    h = np.tanh(X @ W1 + b1)
    logits = h @ W2 + b2
    z = logits - np.max(logits, axis=1, keepdims=True)
    e = np.exp(z)
    p = e / np.sum(e, axis=1, keepdims=True)
    dlogits = (p * np.sum(Y, axis=1, keepdims=True) - Y) / n
    dW2 = h.T @ dlogits
    db2 = np.sum(dlogits, axis=0)
    dh = dlogits @ W2.T
    da1 = dh * (1 - h * h)
    return X.T @ da1, np.sum(da1, axis=0), dW2, db2


def hvp_data(dtype=np.float64, n=1000):
    rng = np.random.default_rng(0)
    A = rng.normal(size=(n, n)) / np.sqrt(n)
    return A.astype(dtype), rng.normal(size=n).astype(dtype), rng.normal(size=n).astype(dtype)


def hvp_hand(A, x, v):
    """H v for f(x) = sum(tanh(A x)) ** 2, by hand: three matrix-vector products."""
    t = np.tanh(A @ x)
    s = np.sum(t)
    d = 1 - t * t
    w = A @ v
    ds = np.sum(d * w)
    return A.T @ (2 * ds * d - 4 * s * t * d * w)


def jacobian_data(n=100, dtype=np.float32):
    rng = np.random.default_rng(0)
    w1 = (rng.normal(size=(n, n)) / np.sqrt(n)).astype(dtype)
    w2 = (rng.normal(size=(n, n)) / np.sqrt(n)).astype(dtype)
    return w1, w2, rng.normal(size=(n,)).astype(dtype)


def jacobian_hand(w1, w2, x):
    h = np.tanh(w1 @ x)
    y = np.tanh(w2 @ h)
    return ((1 - y * y)[:, None] * w2) @ ((1 - h * h)[:, None] * w1)


# --- tapes: adjoin's runtime and TensorFlow ---------------------------------------------------

def tape_ops(tf):
    rng = np.random.default_rng(0)
    x0 = rng.uniform(0.5, 1.0, 8).astype(np.float32)
    w0 = rng.uniform(0.5, 1.0, 8).astype(np.float32)
    x, w = tf.constant(x0), tf.Variable(w0)

    def step():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(chain(x, w))
        return tape.gradient(y, [x, w])
    return step, lambda: chain(x0, w0)


def tape_mlp(tf, dtype):
    W1, b1, W2, b2, X, Y = mlp_data(dtype)
    vs = [tf.Variable(a) for a in (W1, b1, W2, b2)]
    Xt, Yt = tf.constant(X), tf.constant(Y)

    def run():
        w1, c1, w2, c2 = vs
        with tf.GradientTape() as tape:
            h = tf.tanh(tf.matmul(Xt, w1) + c1)
            logits = tf.matmul(h, w2) + c2
            z = logits - tf.reduce_max(logits, axis=1, keepdims=True)
            logp = z - tf.math.log(tf.reduce_sum(tf.exp(z), axis=1, keepdims=True))
            loss = -tf.reduce_sum(Yt * logp) / X.shape[0]
        return tape.gradient(loss, vs)
    got, want = run(), mlp_hand(W1, b1, W2, b2, X, Y)
    tol = 1e-8 if dtype == np.float64 else 2e-3
    for a, b in zip(got, want):
        assert np.asarray(a).dtype == dtype and np.allclose(np.asarray(a), b, rtol=tol, atol=tol * 1e-2)
    return run, lambda: mlp_hand(W1, b1, W2, b2, X, Y)


def tape_hvp(tf, dtype):
    A, x, v = hvp_data(dtype)
    At, xt, vt = tf.constant(A), tf.constant(x), tf.constant(v)

    def run():
        with tf.GradientTape() as outer:
            outer.watch(xt)
            with tf.GradientTape() as inner:
                inner.watch(xt)
                y = tf.reduce_sum(tf.tanh(tf.linalg.matvec(At, xt))) ** 2
            g = inner.gradient(y, xt)
            s = tf.reduce_sum(g * vt)
        return outer.gradient(s, xt)
    want = hvp_hand(A, x, v)
    tol = 1e-8 if dtype == np.float64 else 2e-3
    assert np.allclose(np.asarray(run()), want, rtol=tol, atol=tol * np.max(np.abs(want)))
    return run, lambda: hvp_hand(A, x, v)


def tape_jacobian(tf):
    w1, w2, x = jacobian_data()
    W1, W2, X = tf.constant(w1), tf.constant(w2), tf.constant(x[:, None])

    def run():
        with tf.GradientTape() as tape:
            tape.watch(X)
            y = tf.tanh(W2 @ tf.tanh(W1 @ X))
        return tape.jacobian(y, X)
    assert np.allclose(np.asarray(run()).reshape(100, 100), jacobian_hand(w1, w2, x), rtol=1e-4, atol=1e-5)
    return run, lambda: jacobian_hand(w1, w2, x)


# --- the peers ---------------------------------------------------------------------------------

def _torch(rounds):
    import torch
    torch.set_num_threads(1)
    out = {}
    rng = np.random.default_rng(0)
    xt = torch.tensor(rng.uniform(0.5, 1.0, 8).astype(np.float32), requires_grad=True)
    wt = torch.tensor(rng.uniform(0.5, 1.0, 8).astype(np.float32), requires_grad=True)
    t, = interleaved([lambda: torch.autograd.grad(chain(xt, wt).sum(), [xt, wt])])
    out["ops"] = t / N_OPS * 1e6
    for dtype in (np.float64, np.float32):
        args = mlp_data(dtype)
        W1, b1, W2, b2, X, Y = [torch.tensor(a) for a in args]
        ps = [p.requires_grad_() for p in (W1, b1, W2, b2)]

        def mlp():
            h = torch.tanh(X @ ps[0] + ps[1])
            logits = h @ ps[2] + ps[3]
            z = logits - logits.max(dim=1, keepdim=True).values
            logp = z - torch.log(torch.exp(z).sum(dim=1, keepdim=True))
            return torch.autograd.grad(-(Y * logp).sum() / X.shape[0], ps)
        name = np.dtype(dtype).name
        out[f"mlp {name}"] = paired([mlp, lambda: mlp_hand(*args)], rounds=rounds)[1][0]
        A, x, v = hvp_data(dtype)
        At, vt = torch.tensor(A), torch.tensor(v)
        xt2 = torch.tensor(x, requires_grad=True)

        def hvp():
            g, = torch.autograd.grad(torch.tanh(At @ xt2).sum() ** 2, xt2, create_graph=True)
            return torch.autograd.grad((g * vt).sum(), xt2)
        out[f"hvp {name}"] = paired([hvp, lambda: hvp_hand(A, x, v)], rounds=rounds)[1][0]
    w1, w2, x = jacobian_data()
    t1, t2, tx = torch.tensor(w1), torch.tensor(w2), torch.tensor(x)
    out["jacobian"] = paired([lambda: torch.autograd.functional.jacobian(
        lambda u: torch.tanh(t2 @ torch.tanh(t1 @ u)), tx, vectorize=True),
        lambda: jacobian_hand(w1, w2, x)], rounds=rounds)[1][0]
    return out


def _jax(rounds):
    import jax
    import jax.numpy as jnp
    jax.config.update("jax_enable_x64", True)
    out = {}
    for dtype in (np.float64, np.float32):
        args = mlp_data(dtype)

        def loss(W1, b1, W2, b2, X, Y):
            h = jnp.tanh(X @ W1 + b1)
            logits = h @ W2 + b2
            z = logits - jnp.max(logits, axis=1, keepdims=True)
            logp = z - jnp.log(jnp.sum(jnp.exp(z), axis=1, keepdims=True))
            return -jnp.sum(Y * logp) / X.shape[0]
        g = jax.jit(jax.grad(loss, argnums=(0, 1, 2, 3)))
        jargs = [jnp.asarray(a) for a in args]

        def run():
            return [a.block_until_ready() for a in g(*jargs)]
        name = np.dtype(dtype).name
        out[f"mlp {name}"] = paired([run, lambda: mlp_hand(*args)], rounds=rounds)[1][0]

        def blocks(fn):
            return lambda: [fn() for _ in range(10)]
        out[f"blocks {name}"] = paired([blocks(run), blocks(lambda: mlp_hand(*args))], rounds=rounds)[1][0]
        A, x, v = hvp_data(dtype)
        f = lambda u: jnp.sum(jnp.tanh(jnp.asarray(A) @ u)) ** 2      # noqa: E731
        h = jax.jit(lambda u, w: jax.jvp(jax.grad(f), (u,), (w,))[1])
        out[f"hvp {name}"] = paired([lambda: h(x, v).block_until_ready(), lambda: hvp_hand(A, x, v)],
                                    rounds=rounds)[1][0]
    w1, w2, x = jacobian_data()
    jf = jax.jit(jax.jacrev(lambda u: jnp.tanh(w2 @ jnp.tanh(w1 @ u))))
    out["jacobian"] = paired([lambda: jf(x).block_until_ready(), lambda: jacobian_hand(w1, w2, x)],
                             rounds=rounds)[1][0]
    return out


def _tf(rounds):
    import tensorflow as tf
    out = {}
    step, _ = tape_ops(tf)
    t, = interleaved([step])
    out["ops"] = t / N_OPS * 1e6
    for dtype in (np.float64, np.float32):
        run, hand = tape_mlp(tf, dtype)
        out[f"mlp {np.dtype(dtype).name}"] = paired([run, hand], rounds=rounds)[1][0]
    run, hand = tape_jacobian(tf)
    out["jacobian"] = paired([run, hand], rounds=rounds)[1][0]
    return out


if __name__ == "__main__":
    rounds = 9
    print(json.dumps({"torch": _torch, "jax": _jax, "tf": _tf}[sys.argv[1]](rounds)))
