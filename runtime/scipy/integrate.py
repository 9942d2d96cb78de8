"""``runtime.scipy.integrate``: ``odeint`` and ``solve_ivp`` on tensors.

Each records one op (``ode_path``, rules in ``runtime/rules/scipy_integrate/``) whose gradients
w.r.t. the initial state, the times and the tensors in ``args`` come from the continuous adjoint
(reverse) or the forward sensitivity equations (``ForwardAccumulator``), solved with the same
method and tolerances.  The right-hand side is the user's function: the tape differentiates it by
running it on tensors (the provider registered below), so nested tapes give second derivatives.
Any other name is scipy.integrate's own.
"""

import numpy as np
import scipy.integrate as _scipy_integrate

from ..engine.forward import ForwardAccumulator
from ..engine.recording import _state
from ..engine.tape import GradientTape
from ..engine.tensor import constant
from ..rules import callees
from ..rules.registry import TENSOR_TYPES
from ..rules.support import shape_of
from ..rules.scipy_integrate import ode_path
from ..rules.scipy_integrate.leaves import differentiable
from ..rules.scipy_integrate.solvers import Ivp, Odeint


def odeint(func, y0, t, args=(), Dfun=None, col_deriv=0, full_output=0, ml=None, mu=None, rtol=None, atol=None,
           tcrit=None, h0=0.0, hmax=0.0, hmin=0.0, ixpr=0, mxstep=0, mxhnil=0, mxordn=12, mxords=5, printmessg=0,
           tfirst=False):
    """``scipy.integrate.odeint``: the solution at the times ``t`` (rows), one recorded op."""
    options = dict(Dfun=Dfun, col_deriv=col_deriv, full_output=full_output, ml=ml, mu=mu, rtol=rtol, atol=atol,
                   tcrit=tcrit, h0=h0, hmax=hmax, hmin=hmin, ixpr=ixpr, mxstep=mxstep, mxhnil=mxhnil,
                   mxordn=mxordn, mxords=mxords, printmessg=printmessg, tfirst=tfirst)
    return ode_path(Odeint(options), callees.OnTape(func), y0, t, tuple(args))


def solve_ivp(fun, t_span, y0, method="RK45", t_eval=None, dense_output=False, events=None, vectorized=False,
              args=None, **options):
    """``scipy.integrate.solve_ivp``: an ``OdeResult`` whose ``y`` (states x times) is one recorded op
    when anything in ``y0``, ``t_eval`` or ``args`` is recorded.  Differentiating needs ``t_eval``
    (without it the solver picks the output times, which move with the inputs); ``events`` and
    ``dense_output`` are refused then (event times and the interpolant are not differentiated)."""
    args = () if args is None else tuple(args)
    if not _recorded((y0, t_eval, t_span, args)):
        return _scipy_integrate.solve_ivp(fun, t_span, y0, method=method, t_eval=t_eval, dense_output=dense_output,
                                          events=events, vectorized=vectorized, args=args or None, **options)
    _refuse_ivp(t_eval, events, dense_output)
    # the path from t_span[0] to t_span[1] (the solver's steps depend on both), read at t_eval
    span, times = _value(t_span), np.asarray(_value(t_eval))
    first, last = int(times[0] != span[0]), int(times[-1] != span[1])
    parts = [np.reshape(t_span[0], (1,))] * first + [t_eval] + [np.reshape(t_span[1], (1,))] * last
    y = ode_path(Ivp(method, options), callees.OnTape(fun), y0, np.concatenate(parts), args)
    y = y[first:shape_of(y)[0] - last]
    return _scipy_integrate._ivp.ivp.OdeResult(t=t_eval, y=np.transpose(y), sol=None, t_events=None,
                                               y_events=None, nfev=0, njev=0, nlu=0, status=0,
                                               message="The solver successfully reached the end of the "
                                                       "integration interval.", success=True)


def _refuse_ivp(t_eval, events, dense_output):
    where = "runtime.scipy.integrate.solve_ivp"
    if t_eval is None:
        raise NotImplementedError(f"{where} is differentiated at the times given by t_eval=: without it the "
                                  f"solver chooses the output times, which move with the inputs; pass "
                                  f"t_eval=[...] with the times you need")
    if events is not None:
        raise NotImplementedError(f"{where}(events=...) is not differentiated (the event times depend on the "
                                  f"inputs); find the events without recording, or drop events=")
    if dense_output:
        raise NotImplementedError(f"{where}(dense_output=True) is not differentiated (sol.sol is an "
                                  f"interpolant); pass the times you need in t_eval=")


def _recorded(x):
    if type(x) in (tuple, list):
        return any(_recorded(v) for v in x)
    return type(x) in TENSOR_TYPES


def _value(x):
    if type(x) in (tuple, list):
        return [_value(v) for v in x]
    return x.numpy() if type(x) in TENSOR_TYPES else x


# --- the tape differentiates a user's function (odeint's right-hand side) -------------------------

def _as_tensors(x):
    """``x`` with each differentiable number or array as a float tensor (tensors stay)."""
    if type(x) in (tuple, list):
        return type(x)(_as_tensors(v) for v in x)
    if type(x) in TENSOR_TYPES or not differentiable(x):
        return x
    if np.iscomplexobj(x):
        raise NotImplementedError("complex states and parameters of an ODE are not differentiated on the tape")
    return constant(np.asarray(x, dtype=np.result_type(x, np.float32) if hasattr(x, "dtype") else np.float64))


def _numpy_like(grad, primal):
    """A gradient as the primal was given: a numpy value for a numpy primal, zeros for None."""
    if type(primal) in (tuple, list):
        grads = [None] * len(primal) if grad is None else grad
        return type(primal)(_numpy_like(g, p) for g, p in zip(grads, primal))
    if not differentiable(primal):
        return None
    if grad is None:
        return np.zeros(np.shape(_value(primal)))
    if type(primal) in TENSOR_TYPES:
        return grad
    return np.asarray(grad.numpy() if type(grad) in TENSOR_TYPES else grad)


def _tape_vjp(func, primals, wrt):
    tensors = list(_as_tensors(primals))
    watched = [tensors[i] for i in wrt]
    with GradientTape(persistent=False) as tape:
        tape.watch(watched)
        value = func(*tensors)
    plain = not _recorded(primals)

    def pullback(cotangent):
        grads = tape.gradient(value, watched, output_gradients=cotangent)
        return tuple(_numpy_like(g, primals[i]) for g, i in zip(grads, wrt))
    return (value.numpy() if plain else value), pullback


def _tape_jvp(func, primals, tangents):
    tensors = list(_as_tensors(primals))
    at = [i for i, t in enumerate(tangents) if t is not None]
    if not at:
        value = func(*tensors)
        return value, np.zeros(np.shape(_value(value)))
    with ForwardAccumulator([tensors[i] for i in at], [_as_tensors(tangents[i]) for i in at]) as acc:
        value = func(*tensors)
    tangent = acc.jvp(value)
    if tangent is None:
        tangent = np.zeros(np.shape(_value(value)))
    if not _recorded(primals) and not _recorded(tangents) and not _state.tapes:
        return value.numpy(), _value(tangent)
    return value, tangent


callees.register("tape", vjp=_tape_vjp, jvp=_tape_jvp)


def __getattr__(name):
    return getattr(_scipy_integrate, name)


def __dir__():
    return sorted(set(globals()) | set(dir(_scipy_integrate)))
