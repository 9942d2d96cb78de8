"""Rules for ``scipy.integrate.odeint`` itself (what the transpiler reads in a program), and the
refusals for what is not differentiated.

The rules are ``ode_path``'s, with the solver built from odeint's keywords.  The transpiler's
second derivatives through them are refused (a located error): its generated gradient calls these
rules, whose own slots refuse; nested tapes differentiate odeint twice instead.
``solve_ivp`` returns an object whose ``.y`` the transpiler cannot read yet, so it is refused there
with that reason; on the tape, ``runtime.scipy.integrate.solve_ivp`` is differentiated.
"""

import inspect

import scipy.integrate as _si

from ..refused import NoDerivative
from ..registry import define
from .paths import grads_of, path_tangent
from .solvers import Odeint


def solver_of(options):
    return Odeint(options)


def odeint_vjp_y0(g, ans, func, y0, t, args=(), **options):
    return grads_of(g, ans, solver_of(options), func, y0, t, args)[0]


def odeint_vjp_t(g, ans, func, y0, t, args=(), **options):
    return grads_of(g, ans, solver_of(options), func, y0, t, args)[1]


def odeint_vjp_args(g, ans, func, y0, t, args=(), **options):
    return grads_of(g, ans, solver_of(options), func, y0, t, args)[2]


def odeint_jvp_y0(d, ans, func, y0, t, args=(), **options):
    return path_tangent(ans, solver_of(options), func, y0, t, args, dy0=d)


def odeint_jvp_t(d, ans, func, y0, t, args=(), **options):
    return path_tangent(ans, solver_of(options), func, y0, t, args, dt=d)


def odeint_jvp_args(d, ans, func, y0, t, args=(), **options):
    return path_tangent(ans, solver_of(options), func, y0, t, args, dargs=d)


define(_si.odeint, vjp=(None, odeint_vjp_y0, odeint_vjp_t, odeint_vjp_args),
       jvp=(None, odeint_jvp_y0, odeint_jvp_t, odeint_jvp_args))

class Refused(NoDerivative):
    """A rule slot that refuses with its own message (what is not differentiated, and what to use)."""

    def __init__(self, message, hint):
        super().__init__("scipy.integrate", "", message, __name__)
        self._message, self.hint = message, hint

    @property
    def message(self):
        return self._message


def refused(fn, params, message, hint):
    """Register ``fn`` with the VJP and JVP slots of its first ``params`` parameters refusing.  The
    slot has the signature a rule of ``fn`` would have, so a keyword argument is read at its position."""
    slot = Refused(message, hint)
    own = list(inspect.signature(fn).parameters.values())
    if own[0].name not in ("g", "d"):       # (not already a rule's)
        own = [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD) for n in ("g", "ans")] + own
    slot.__signature__ = inspect.Signature(own)
    define(fn, vjp=(slot,) * params, jvp=(slot,) * params)


for _rule in (odeint_vjp_y0, odeint_vjp_t, odeint_vjp_args, odeint_jvp_y0, odeint_jvp_t, odeint_jvp_args):
    refused(_rule, 6, "second derivatives through scipy.integrate.odeint are not computed by the transpiler",
            "differentiate twice on the tape: nested tf.GradientTape()s (or a ForwardAccumulator inside one) "
            "around runtime.scipy.integrate.odeint")

refused(_si.solve_ivp, 9, "scipy.integrate.solve_ivp is not differentiated by the transpiler: it does not read "
        "attributes of the result (sol.y) yet",
        "call scipy.integrate.odeint(fun, y0, t_eval, args, tfirst=True) with the same fun, or differentiate on "
        "the tape with runtime.scipy.integrate.solve_ivp")
