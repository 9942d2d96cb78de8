"""Everyday Python under @differentiate: helper functions, recursion, a model class with a bound
method, parameters in a dict, a list built in a loop, array writes inside a `with` block -- each
gradient printed next to central finite differences.

    python examples/everyday_python.py
"""

import numpy as np

from transpiler import differentiate, grad, hvp


def softplus(z):
    return np.log1p(np.exp(-np.abs(z))) + np.maximum(z, 0.0)


def horner(coeffs, x, i=0):
    """c0 + x (c1 + x (c2 + ...)), recursively: differentiated through the call stack."""
    if i == len(coeffs) - 1:
        return coeffs[i] + 0.0 * x
    return coeffs[i] + x * horner(coeffs, x, i + 1)


class Layer:
    def __init__(self, w, b):
        self.w, self.b = w, b

    def __call__(self, x, params):
        return softplus(x @ params[self.w] + params[self.b])


class Model:
    def __init__(self):
        self.hidden = Layer("w1", "b1")

    def loss(self, params, x, y):
        h = self.hidden(x, params)
        preds = []
        for i in range(len(x)):                 # a list built in a loop, then stacked
            preds.append(h[i] @ params["w2"] + params["b2"])
        err = np.stack(preds) - y
        return np.mean(err ** 2)


@differentiate
def trajectory_cost(v0, drag):
    """A projectile integrated step by step into a preallocated array (array writes)."""
    steps = 50
    pos = np.zeros((steps, 2))
    v = v0
    with np.errstate(over="ignore"):
        for t in range(1, steps):
            v = v - 0.05 * (drag * v * np.abs(v) + np.array([0.0, 9.81]))
            pos[t] = pos[t - 1] + 0.05 * v
    return np.sum((pos[-1] - np.array([3.0, 0.0])) ** 2)


def horner_sum(x):
    return np.sum(horner((0.5, -1.0, 0.25, 2.0), x))


def fd(f, x, eps=1e-6):
    """Central finite differences of a scalar function of one array."""
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[i] = eps
        g[i] = (f(x + d) - f(x - d)) / (2 * eps)
    return g


def main():
    rng = np.random.default_rng(0)

    x = np.linspace(-1.0, 1.0, 5)
    d_horner = grad(horner_sum)(x)
    print("d/dx horner      :", np.round(d_horner, 6))
    print("  finite diffs   :", np.round(fd(horner_sum, x), 6))

    model = Model()
    params = {"w1": rng.normal(size=(3, 4)) * 0.5, "b1": np.zeros(4),
              "w2": rng.normal(size=(4,)) * 0.5, "b2": 0.1}
    X, Y = rng.normal(size=(6, 3)), rng.normal(size=6)
    g = grad(model.loss)(params, X, Y)          # bound method: wrt=0 is `params`, not self
    print("dict gradient    :", {k: np.shape(v) for k, v in g.items()})
    w1 = params["w1"]
    check = fd(lambda w: model.loss(dict(params, w1=w), X, Y), w1)
    print("  max |dW1 - fd| :", f"{np.max(np.abs(g['w1'] - check)):.1e}")

    v0, drag = np.array([4.0, 6.0]), 0.1
    dv0 = trajectory_cost.grad(v0, drag)
    print("d cost / d v0    :", np.round(dv0, 6))
    print("  finite diffs   :", np.round(fd(lambda v: trajectory_cost(v, drag), v0), 6))
    direction, eps = np.array([0.3, 1.0]), 1e-5
    hv = hvp(trajectory_cost, (v0, drag), direction)
    hv_fd = (trajectory_cost.grad(v0 + eps * direction, drag)
             - trajectory_cost.grad(v0 - eps * direction, drag)) / (2 * eps)
    print("Hessian-vector   :", np.round(hv, 5))
    print("  fd of gradient :", np.round(hv_fd, 5))
    return {"horner": (d_horner, fd(horner_sum, x)), "dict": (g["w1"], check),
            "writes": (dv0, fd(lambda v: trajectory_cost(v, drag), v0)), "hvp": (hv, hv_fd)}


if __name__ == "__main__":
    main()
