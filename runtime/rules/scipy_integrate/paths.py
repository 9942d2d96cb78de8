"""An ODE's path as one primitive, ``ode_path(solver, func, y0, t, args)`` (the solution at the
times ``t``, one row each), and its derivatives.

Reverse (the continuous adjoint): from the last time back to the first, each interval
[t[i-1], t[i]] is one backward solve of the ``Adjoint`` system started from the forward path's
y(t[i]), the adjoint a (plus the cotangent of row i) and the parameters' gradient so far.  An
output time's gradient is g[i] . f(y(t[i]), t[i]); the first time's is -a(t[0]) . f(y0, t[0]),
as moving the start moves the whole path.  Forward: one solve of the ``Sensitivity`` system.

The solves call ``ode_path`` again, so on tensors they are recorded ops whose own rules are these:
nested tapes give second derivatives (the right-hand side differentiated twice by the tape).
"""

import threading

import numpy as np

from ..registry import define
from ..scipy_linalg.structure import nested_primitive
from ..support import shape_of
from .dynamics import Adjoint, Sensitivity
from .leaves import flatten, size_of, unflatten


@nested_primitive
def ode_path(solver, func, y0, t, args):
    """The solution of y' = func at the times ``t`` from ``y0`` at t[0]: shape (len(t), len(y0))."""
    return solver.path(func, y0, t, args)


def path_grads(g, path, solver, func, y0, t, args):
    """(d y0, d t, d args) of <g, path> where ``path = ode_path(solver, func, y0, t, args)``."""
    n, size = shape_of(path)[-1], size_of(args)
    g = np.reshape(g, shape_of(path))
    back = solver.for_state(2 * n + size)
    adjoint = Adjoint(func, solver, n)
    a, m, times = g[-1], np.zeros(size), []
    for i in range(shape_of(path)[0] - 1, 0, -1):
        times.append(np.sum(g[i] * solver.rhs(func, path[i], t[i], args)))
        state = ode_path(back, adjoint, np.concatenate([path[i], a, m]), np.stack([t[i], t[i - 1]]), args)[-1]
        a, m = state[n:2 * n], state[2 * n:]
        if i > 1:
            a = a + g[i - 1]
    if shape_of(path)[0] > 1:
        times.append(-np.sum(a * solver.rhs(func, path[0], t[0], args)))
        a = a + g[0]
    else:
        times.append(0.0 * np.sum(g))
    return np.reshape(a, shape_of(y0)), np.stack(times[::-1]), unflatten(m, args)


class Memo(threading.local):
    """The last adjoint computed in this thread: a sweep asks each argument's VJP in turn, and
    one backward solve serves them all.  Keyed by the identity of its inputs, which it holds."""
    key = held = value = None


_MEMO = Memo()


def grads_of(g, path, solver, func, y0, t, args):
    held = (g, path, solver, func, y0, t, args)
    key = tuple(id(x) for x in held)
    if _MEMO.key != key:
        _MEMO.value = path_grads(*held)
        _MEMO.key, _MEMO.held = key, held
    return _MEMO.value


def path_tangent(path, solver, func, y0, t, args, dy0=None, dt=None, dargs=None):
    """The tangent of ``path`` along the tangents of y0, t and args (None: constant)."""
    n, rows = shape_of(path)[-1], shape_of(path)[0]
    if dy0 is None and dargs is None and (dt is None or rows < 2):
        moving = None                   # only output times move: no solve
    else:
        s0 = np.zeros(n) if dy0 is None else np.ravel(dy0)
        if dt is not None:
            s0 = s0 - solver.rhs(func, path[0], t[0], args) * dt[0]
        both = ode_path(solver.for_state(2 * n), Sensitivity(func, solver, n), np.concatenate([path[0], s0]), t,
                        (args, dargs))
        moving = both[:, n:]
    first = np.zeros((1, n)) if dy0 is None else np.reshape(dy0, (1, n))
    if rows < 2:
        return first
    later = np.zeros((rows - 1, n)) if moving is None else moving[1:]
    if dt is not None:
        later = later + np.stack([solver.rhs(func, path[i], t[i], args) * dt[i] for i in range(1, rows)])
    return np.concatenate([first, later])


def ode_path_vjp_y0(g, ans, solver, func, y0, t, args):
    return grads_of(g, ans, solver, func, y0, t, args)[0]


def ode_path_vjp_t(g, ans, solver, func, y0, t, args):
    return grads_of(g, ans, solver, func, y0, t, args)[1]


def ode_path_vjp_args(g, ans, solver, func, y0, t, args):
    return grads_of(g, ans, solver, func, y0, t, args)[2]


def ode_path_jvp_y0(d, ans, solver, func, y0, t, args):
    return path_tangent(ans, solver, func, y0, t, args, dy0=d)


def ode_path_jvp_t(d, ans, solver, func, y0, t, args):
    return path_tangent(ans, solver, func, y0, t, args, dt=d)


def ode_path_jvp_args(d, ans, solver, func, y0, t, args):
    return path_tangent(ans, solver, func, y0, t, args, dargs=d)


define(ode_path, vjp=(None, None, ode_path_vjp_y0, ode_path_vjp_t, ode_path_vjp_args),
       jvp=(None, None, ode_path_jvp_y0, ode_path_jvp_t, ode_path_jvp_args))
