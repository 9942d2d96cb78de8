"""How an ODE is solved: scipy's ``odeint`` (LSODA) or ``solve_ivp`` (its ``method``), with the
user's options.  A solver gives the path at the requested times, and the solver the derivative's
own solves use: the same method and tolerances, widened to the longer state (a vector ``atol``
or ``rtol`` is extended with its smallest entry) and without what only fits the user's system (a
Jacobian, its band, a first step)."""

import numpy as np
import scipy.integrate as _si

from ..support import value_of


def widened(tol, n):
    """A tolerance for a state of ``n`` values from the user's (a vector: padded with its minimum)."""
    if tol is None or np.ndim(tol) == 0:
        return tol
    tol = np.asarray(value_of(tol), dtype=float)
    return np.concatenate([tol, np.full(n - tol.size, tol.min())]) if n > tol.size else tol[:n]


class Odeint:
    """``scipy.integrate.odeint(func, y0, t, args, **options)``; ``func(y, t, *args)``, or
    ``func(t, y, *args)`` with ``tfirst``."""

    own = ("Dfun", "col_deriv", "ml", "mu", "h0", "tcrit")    # options of the user's system only

    def __init__(self, options):
        options = dict(options)
        if options.pop("full_output", 0):
            raise NotImplementedError("scipy.integrate.odeint(full_output=True) is not differentiated: its "
                                      "information dictionary has no derivative; call it with "
                                      "full_output=False where the path is differentiated")
        self.tfirst = bool(options.pop("tfirst", False))
        self.options = options

    def path(self, func, y0, t, args):
        return _si.odeint(func, y0, t, args=tuple(args), tfirst=self.tfirst, **self.options)

    def rhs(self, func, y, t, args):
        return func(t, y, *args) if self.tfirst else func(y, t, *args)

    def primals(self, y, t, args):
        """The arguments of the right-hand side, in its order, and where y is among them."""
        return ((t, y) + tuple(args), 1) if self.tfirst else ((y, t) + tuple(args), 0)

    def for_state(self, n):
        """The solver for a derivative's longer state of ``n`` values."""
        options = {k: v for k, v in self.options.items() if k not in self.own}
        for name in ("rtol", "atol"):
            if options.get(name) is not None:
                options[name] = widened(options[name], n)
        return Odeint(dict(options, tfirst=self.tfirst))


class Ivp:
    """``scipy.integrate.solve_ivp(fun, (t[0], t[-1]), y0, method, t_eval=t, args, **options)``;
    ``fun(t, y, *args)``."""

    own = ("jac", "jac_sparsity", "lband", "uband", "first_step", "vectorized")
    tfirst = True

    def __init__(self, method, options):
        self.method, self.options = method, dict(options)

    def path(self, func, y0, t, args):
        t = np.asarray(t)
        sol = _si.solve_ivp(func, (t[0], t[-1]), y0, method=self.method, t_eval=t, args=tuple(args) or None,
                            **self.options)
        if sol.status < 0:
            raise RuntimeError(f"scipy.integrate.solve_ivp failed: {sol.message}")
        return sol.y.T

    def rhs(self, func, y, t, args):
        return func(t, y, *args)

    def primals(self, y, t, args):
        return (t, y) + tuple(args), 1

    def for_state(self, n):
        options = {k: v for k, v in self.options.items() if k not in self.own}
        for name in ("rtol", "atol"):
            if options.get(name) is not None:
                options[name] = widened(options[name], n)
        return Ivp(self.method, options)
