"""The systems a derivative integrates, built around the user's right-hand side f.

``Adjoint``: the state (y, a, m) run backwards in time, y' = f, a' = -a^T df/dy, m' = -a^T df/dargs,
so that from a = dL/dy(t1) at t1, a(t0) is dL/dy(t0) and m(t0) the gradient w.r.t. the parameters
over [t0, t1].  ``Sensitivity``: the state (y, s) forward in time, s' = df/dy s + df/dargs dargs.
Both get f's derivatives from the half differentiating it (``callees``), and are themselves
functions a solver can call -- or a tape differentiate again, for second order.
"""

import numpy as np

from .. import callees
from .leaves import differentiable, flatten, items, tangent_leaves


def _wrt_args(args, first):
    """The positions (among the right-hand side's arguments, args starting at ``first``) of the
    arguments holding something differentiable."""
    return tuple(first + k for k, a in enumerate(args) if any(differentiable(x) for x in items(a)))


class Adjoint:
    """The adjoint system of ``func`` (n states), called as the solver calls a right-hand side."""

    def __init__(self, func, solver, n):
        self.func, self.solver, self.n = func, solver, n
        self.half = callees.half_of(func)

    def __call__(self, *call):
        (s, t), args = (call[1], call[0]) if self.solver.tfirst else (call[0], call[1]), call[2:]
        n = self.n
        primals, at_y = self.solver.primals(s[:n], t, args)
        wrt = (at_y,) + _wrt_args(args, 2)
        value, pullback = callees.vjp(self.func, primals, wrt)
        grads = pullback(s[n:2 * n])
        by_arg = [None] * len(args)
        for k, g in zip(wrt[1:], grads[1:]):
            by_arg[k - 2] = g
        return np.concatenate([value, -grads[0], -flatten(by_arg, args)])


class Sensitivity:
    """The state (y, s) of ``func`` (n states) with s the tangent of y along the parameters'
    tangents ``dargs`` (shaped like the args; None: constant).  Called with ``(args, dargs)`` as
    its own args."""

    def __init__(self, func, solver, n):
        self.func, self.solver, self.n = func, solver, n
        self.half = callees.half_of(func)

    def __call__(self, *call):
        (s, t), (args, dargs) = (call[1], call[0]) if self.solver.tfirst else (call[0], call[1]), call[2:]
        n = self.n
        primals, at_y = self.solver.primals(s[:n], t, args)
        tangents = [None] * len(primals)
        tangents[at_y] = s[n:]
        if dargs is not None:
            for k, (a, d) in enumerate(zip(args, tangent_leaves(dargs, args))):
                tangents[2 + k] = d if any(differentiable(x) for x in items(a)) else None
        value, tangent = callees.jvp(self.func, primals, tangents)
        return np.concatenate([value, tangent])
