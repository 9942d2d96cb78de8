"""A tour of adjoin's transpiler: @differentiate writes the gradient as plain numpy code.

    python examples/transpiler_tour.py
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from transpiler import TranspileError, differentiate, grad, value_and_grad  # noqa: E402


@differentiate
def f(x):
    return np.sin(x * x)


@differentiate(wrt=("x", "y"))
def g(x, y):
    r = np.sqrt(x * x + y * y)
    scale = 2.0 if r.ndim == 0 else 1.0
    return scale * np.sum(np.tanh(r) * x)


def softmax_cross_entropy(logits, labels):
    z = logits - np.max(logits, axis=-1, keepdims=True)
    logp = z - np.log(np.sum(np.exp(z), axis=-1, keepdims=True))
    return -np.mean(np.sum(labels * logp, axis=-1))


def main():
    x = np.linspace(-1.0, 1.0, 5)
    print("f(x)       =", f(x))                 # the original function, unchanged
    print("f.grad(x)  =", f.grad(x))            # 2 x cos(x^2), from generated code
    print("\n--- f.show() ---")
    f.show()

    gx, gy = g.grad(x, 0.5)
    print("\ng.grad(x, 0.5) =", gx, gy)
    print("--- g.source ---")
    print(g.source)

    dce = grad(softmax_cross_entropy)                      # functional form
    vg = value_and_grad(softmax_cross_entropy)
    logits = np.random.default_rng(0).normal(size=(4, 3))
    labels = np.eye(3)[[0, 2, 1, 1]]
    value, d = vg(logits, labels)
    print("cross-entropy", value, "\ngradient\n", d)
    assert np.allclose(d, dce(logits, labels))

    value, pullback = f.vjp(x)                              # vector-Jacobian product
    print("\nf.vjp: pullback(ones) =", pullback(np.ones_like(x)))

    def with_loop(x):
        for _ in range(3):
            x = x * 2
        return x

    try:
        differentiate(with_loop)
    except TranspileError as e:
        print("\nUnsupported constructs are reported at the user's line:\n" + str(e))


if __name__ == "__main__":
    main()
