"""Logistic regression trained with a gradient the transpiler writes ahead of time.

    python examples/logistic_regression.py
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from transpiler import differentiate  # noqa: E402


@differentiate(wrt=("w", "b"))
def loss(w, b, X, y, l2=1e-3):
    """Mean binary cross-entropy of a linear model, with L2 regularization."""
    z = X @ w + b
    p = 1.0 / (1.0 + np.exp(-z))
    eps = 1e-12
    nll = -np.mean(y * np.log(p + eps) + (1.0 - y) * np.log(1.0 - p + eps))
    return nll + l2 * np.sum(w * w)


def main():
    rng = np.random.default_rng(0)
    n, d = 500, 5
    true_w = rng.normal(size=d)
    X = rng.normal(size=(n, d))
    y = (X @ true_w + 0.3 + 0.5 * rng.normal(size=n) > 0).astype(np.float64)

    print("generated gradient:\n")
    loss.show()

    w, b = np.zeros(d), 0.0
    for step in range(301):
        (value, (gw, gb)) = loss.value_and_grad(w, b, X, y)
        w, b = w - 0.5 * gw, b - 0.5 * gb
        if step % 100 == 0:
            print(f"step {step:3d}  loss {value:.4f}")
    accuracy = np.mean(((X @ w + b) > 0) == (y > 0.5))
    print(f"accuracy {accuracy:.3f}; cosine(w, true_w) = "
          f"{w @ true_w / np.linalg.norm(w) / np.linalg.norm(true_w):.3f}")


if __name__ == "__main__":
    main()
