"""Force matching: forces from a ``@differentiate``d energy, an outer tape over a loss on them.

A cluster of atoms interacts through a Morse pair potential with parameters (depth ``D``,
width ``a``, equilibrium distance ``r0``).  The energy is plain numpy under
``@differentiate``; the forces are ``F = -dE/dx`` from an inner ``GradientTape``, and an
outer tape differentiates a force-matching loss with respect to the parameters -- a
second derivative through the recorded generated adjoint (d2E / dx dparams).

1. the outer gradient is checked against the same energy written with TF ops and against
   central finite differences of the loss;
2. the parameters are fitted to "reference" forces made with known ones, recovering them.

Run:  python examples/interop_physics.py [--steps 200]
"""

import argparse

import numpy as np

import runtime as tf
from transpiler import differentiate


@differentiate(wrt=(0, 1, 2, 3))
def morse_energy(x, D, a, r0, i, j):
    """Total Morse energy of positions x (n, 3) over the pairs (i[k], j[k])."""
    d = x[i] - x[j]
    r = np.sqrt(np.sum(d * d, axis=-1))
    e = 1.0 - np.exp(-a * (r - r0))
    return np.sum(D * e * e)


def morse_energy_tape(x, D, a, r0, i, j):
    d = tf.gather(x, i) - tf.gather(x, j)
    r = tf.sqrt(tf.reduce_sum(d * d, axis=-1))
    e = 1.0 - tf.exp(-a * (r - r0))
    return tf.reduce_sum(D * e * e)


def forces(energy, x, params, i, j):
    with tf.GradientTape() as inner:
        inner.watch(x)
        e = energy(x, *params, i, j)
    # (tf.gather gives an IndexedSlices gradient, as in TF: make it a dense tensor)
    return -tf.convert_to_tensor(inner.gradient(e, x))


def loss_and_grads(energy, configs, target_forces, params, i, j):
    with tf.GradientTape() as outer:
        loss = 0.0
        for x, f_ref in zip(configs, target_forces):
            f = forces(energy, x, params, i, j)
            loss = loss + tf.reduce_mean((f - f_ref) ** 2)
    return loss, outer.gradient(loss, params)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=600)
    args = p.parse_args(argv)

    rng = np.random.default_rng(0)
    n = 8
    i, j = np.triu_indices(n, k=1)
    lattice = np.stack(np.meshgrid([0.0, 1.1], [0.0, 1.1], [0.0, 1.1]), -1).reshape(-1, 3)
    configs = [tf.constant(lattice + 0.08 * rng.normal(size=lattice.shape)) for _ in range(4)]

    true = [tf.constant(v, dtype=tf.float64) for v in (0.8, 1.7, 1.05)]
    target = [forces(morse_energy, x, true, i, j) for x in configs]

    params = [tf.Variable(v, dtype=tf.float64) for v in (0.5, 1.2, 1.2)]
    names = ["D", "a", "r0"]

    with tf.GradientTape() as tape:
        tape.watch(configs[0])
        morse_energy(configs[0], *params, i, j)
    print(f"ops recorded for one energy evaluation: {len(tape._nodes)}")

    # 1. the second derivative through the transpiled energy, three ways
    loss, g = loss_and_grads(morse_energy, configs, target, params, i, j)
    _, g_tape = loss_and_grads(morse_energy_tape, configs, target, params, i, j)
    fd = []
    for k in range(3):
        h = 1e-6
        up = [tf.constant(q.numpy() + (h if m == k else 0.0)) for m, q in enumerate(params)]
        dn = [tf.constant(q.numpy() - (h if m == k else 0.0)) for m, q in enumerate(params)]
        lu, _ = loss_and_grads(morse_energy, configs, target, up, i, j)
        ld, _ = loss_and_grads(morse_energy, configs, target, dn, i, j)
        fd.append((float(lu) - float(ld)) / (2 * h))
    print(f"loss at the initial parameters: {float(loss):.6f}")
    print(f"{'param':>6} {'transpiled energy':>18} {'tape energy':>14} {'finite diff':>14}")
    for k in range(3):
        print(f"{names[k]:>6} {float(g[k]):>18.9f} {float(g_tape[k]):>14.9f} {fd[k]:>14.9f}")
    np.testing.assert_allclose([float(v) for v in g], [float(v) for v in g_tape], rtol=1e-10)
    np.testing.assert_allclose([float(v) for v in g], fd, rtol=1e-5)

    # 2. fit the parameters to the reference forces
    opt = tf.keras.optimizers.Adam(learning_rate=0.05)
    for step in range(args.steps + 1):
        loss, g = loss_and_grads(morse_energy, configs, target, params, i, j)
        if step % 150 == 0:
            print(f"step {step:>4}: loss {float(loss):.3e}  " +
                  "  ".join(f"{nm}={float(v.numpy()):.4f}" for nm, v in zip(names, params)))
        opt.apply_gradients(zip(g, params))
    print("true parameters:  " + "  ".join(f"{nm}={float(v):.4f}" for nm, v in zip(names, true)))
    return params


if __name__ == "__main__":
    main()
