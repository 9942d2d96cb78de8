"""Run-time calls in generated code, as plain Python the transpiler can differentiate again.

A generated gradient calls a callee known only at run time (a function passed as an argument,
a method of a parameter) through ``call_forward`` / ``call_backward`` (calls.py), whose bodies
are machinery, not differentiable code.  When that gradient is itself differentiated (hvp,
grad of grad) those two calls are read as calls to ``forward_again`` / ``backward_again``
below: they do the same work in the subset the transpiler handles, so the callee's split pair
becomes an ordinary run-time callee (its generated source, differentiated in turn) and the
tape an ordinary tuple ``(backward, saved)``.

A primitive passed as the callee (``apply(np.sin, x)``) keeps a tape of its rule, which has
no source to differentiate: that case is refused with a clear error.
"""

import types

from runtime.rules.registry import nondifferentiable

from . import calls

__all__ = ["forward_again", "backward_again"]


def stage_of(fn, spec, nargs, kwnames):
    """The callee's generated forward (bound to its ``self``) and backward, for this call shape."""
    target, wrt, bound = calls._resolve(fn, spec, nargs, kwnames)
    if not isinstance(target, types.FunctionType):
        raise TypeError(f"higher derivatives through {getattr(fn, '__qualname__', fn)!r} passed as a "
                        "function are not supported: a primitive known only at run time has a rule, not "
                        "source, to differentiate again; call it directly (np.sin(x)) instead")
    forward = calls.proxy(target, wrt, "forward")
    if bound is not None:
        forward = types.MethodType(forward, bound)
    return forward, calls.proxy(target, wrt, "backward")


def forward_of(stage):
    return stage[0]


def backward_of(stage):
    return stage[1]


def function_of(tape):
    """The backward a tape of ``call_forward`` holds (``(backward, saved)``)."""
    if len(tape) != 2:
        raise TypeError("higher derivatives through a primitive passed as a function are not "
                        "supported: its rule has no source to differentiate again; call it directly "
                        "(np.sin(x)) instead")
    return tape[0]


nondifferentiable(stage_of, forward_of, backward_of, function_of)   # they pick functions, not values


def forward_again(fn, spec, *args):
    stage = stage_of(fn, spec, len(args), ())
    forward = forward_of(stage)
    value, saved = forward(*args)
    return value, (backward_of(stage), saved)


def backward_again(tape, g):
    backward = function_of(tape)
    saved = tape[1]
    return backward(saved, g)
