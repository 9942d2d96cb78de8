"""How often float32 transcendental results differ from TensorFlow's in the last bit (issue 13).

Two steps, the first in a venv that has TensorFlow, the second with adjoin's runtime:
    /path/to/tf-venv/bin/python benchmarks/tf_last_bit.py record /tmp/tf_last_bit.npz
    PYTHONPATH=. python benchmarks/tf_last_bit.py compare /tmp/tf_last_bit.npz
``compare`` prints, per function, the share of the random float32 inputs on which each candidate
differs from TF: the runtime as it is, numpy's float32 loop, and float64 rounded once to float32
(the correctly rounded value, nearly always). TF's CPU kernels use Eigen's own approximations, so
even the correctly rounded value disagrees with TF on a large share of inputs.
"""

import sys

import numpy as np


def inputs():
    rng = np.random.default_rng(0)
    return {"x": rng.uniform(-12, 12, 20000).astype(np.float32),
            "z": rng.uniform(0, 1, 20000).astype(np.float32),
            "rows": rng.uniform(-6, 6, (5000, 4)).astype(np.float32),
            "lab": rng.dirichlet(np.ones(4), 5000).astype(np.float32)}


def results(tf, d):
    """Each function's float32 result under ``tf`` (TensorFlow or the runtime)."""
    x, z, rows, lab = d["x"], d["z"], d["rows"], d["lab"]
    out = {"sigmoid": tf.sigmoid(x), "tanh": tf.tanh(x), "softplus": tf.nn.softplus(x),
           "log_sigmoid": tf.math.log_sigmoid(x), "silu": tf.nn.silu(x),
           "sigmoid_xent": tf.nn.sigmoid_cross_entropy_with_logits(labels=z, logits=x),
           "softmax": tf.nn.softmax(rows), "log_softmax": tf.nn.log_softmax(rows),
           "softmax_xent": tf.nn.softmax_cross_entropy_with_logits(labels=lab, logits=rows)}
    xv, rv = tf.constant(x), tf.constant(rows)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([xv, rv])
        s = tf.sigmoid(xv)
        sx = tf.nn.sigmoid_cross_entropy_with_logits(labels=z, logits=xv)
        smx = tf.nn.softmax_cross_entropy_with_logits(labels=lab, logits=rv)
    out.update({"d sigmoid": tape.gradient(s, xv), "d sigmoid_xent": tape.gradient(sx, xv),
                "d softmax_xent": tape.gradient(smx, rv)})
    return {k: np.asarray(v.numpy()) for k, v in out.items()}


def float64_rounded(d):
    """The same functions computed in float64 and rounded once to float32."""
    x, z, r, lab = (d[k].astype(np.float64) for k in ("x", "z", "rows", "lab"))
    e = np.exp(r - r.max(-1, keepdims=True))
    sm = e / e.sum(-1, keepdims=True)
    sig = 1 / (1 + np.exp(-x))
    out = {"sigmoid": sig, "tanh": np.tanh(x), "softplus": np.logaddexp(0, x),
           "log_sigmoid": -np.logaddexp(0, -x), "silu": x * sig,
           "sigmoid_xent": np.maximum(x, 0) - x * z + np.log1p(np.exp(-np.abs(x))),
           "softmax": sm, "log_softmax": np.log(sm), "softmax_xent": -(lab * np.log(sm)).sum(-1),
           "d sigmoid": sig * (1 - sig), "d sigmoid_xent": sig - z, "d softmax_xent": sm - lab}
    return {k: v.astype(np.float32) for k, v in out.items()}


def numpy_float32(d):
    x, r = d["x"], d["rows"]
    e = np.exp(r - r.max(-1, keepdims=True))
    return {"sigmoid": 1 / (1 + np.exp(-x)), "tanh": np.tanh(x), "softmax": e / e.sum(-1, keepdims=True)}


def main(argv):
    if len(argv) != 3 or argv[1] not in ("record", "compare"):
        sys.exit(__doc__)
    if argv[1] == "record":
        import tensorflow as tf
        d = inputs()
        np.savez(argv[2], **d, **{"tf " + k: v for k, v in results(tf, d).items()})
        return
    import runtime as tf
    saved = np.load(argv[2])
    d = {k: saved[k] for k in ("x", "z", "rows", "lab")}
    ours, f64, f32 = results(tf, d), float64_rounded(d), numpy_float32(d)
    print(f"{'function':16s} {'runtime':>8s} {'numpy f32':>10s} {'f64 rounded':>12s}   (share of inputs differing from TF)")
    for name in ours:
        ref = saved["tf " + name]
        cells = [f"{np.mean(c[name] != ref):8.1%}" if name in c else f"{'-':>8s}" for c in (ours, f32, f64)]
        print(f"{name:16s} {cells[0]:>8s} {cells[1]:>10s} {cells[2]:>12s}")


if __name__ == "__main__":
    main(sys.argv)
