"""Differentiating a user's function that a primitive calls (odeint's right-hand side).

A few rules need the derivative of a function the user passes in: the adjoint of
``scipy.integrate.odeint(func, y0, t, args)`` integrates ``a^T df/dy`` backwards.  That
function is ordinary Python, differentiated by whichever half is running:

* the transpiler registers ``"transpiler"`` when it is imported: the function's VJP/JVP is the
  transpiler's own code for it (generated once, cached);
* ``runtime.scipy`` registers ``"tape"``: the function runs on tensors under a nested
  ``GradientTape`` (``ForwardAccumulator`` for a JVP), so a tape recording the rule itself
  records that too (higher order).

The tape's entry points wrap the user's function in ``OnTape`` before calling the primitive; a
bare function is the transpiler's.  This module imports nothing but numpy: the halves register
themselves (``register``), neither is imported from here.
"""

__all__ = ["OnTape", "register", "vjp", "jvp", "half_of"]

_VJP = {}
"""half -> ``vjp(func, primals, wrt) -> (value, pullback)``; ``pullback(cotangent)`` gives the
gradients of ``primals[i]`` for i in ``wrt`` (a tuple, each shaped like its primal)."""

_JVP = {}
"""half -> ``jvp(func, primals, tangents) -> (value, tangent)``; ``tangents`` has one entry per
primal (None: held constant)."""


class OnTape:
    """A user's function passed to a primitive by one of the tape's entry points
    (``runtime.scipy.integrate.odeint``): the tape differentiates it.  Calling it calls it."""

    __slots__ = ("fn",)
    half = "tape"

    def __init__(self, fn):
        self.fn = fn

    def __call__(self, *args, **kwargs):
        return self.fn(*args, **kwargs)

    def __repr__(self):
        return f"OnTape({getattr(self.fn, '__qualname__', self.fn)!r})"


def half_of(func):
    """Which half differentiates ``func``: the one that marked it, else the transpiler."""
    return getattr(func, "half", None) or "transpiler"


def register(half, vjp=None, jvp=None):
    """Called by each half when it loads (``"transpiler"``, ``"tape"``)."""
    if vjp is not None:
        _VJP[half] = vjp
    if jvp is not None:
        _JVP[half] = jvp


def _provider(table, func, what):
    half = half_of(func)
    found = table.get(half)
    if found is None:
        hint = ("import transpiler (it differentiates the function)" if half == "transpiler" else
                "import runtime.scipy")
        raise RuntimeError(f"{what} of {getattr(func, '__qualname__', func)!r} needs the {half} to "
                           f"differentiate it: {hint}")
    return found


def vjp(func, primals, wrt):
    """``(func(*primals), pullback)`` by the half that differentiates ``func``."""
    return _provider(_VJP, func, "a gradient")(func, tuple(primals), tuple(wrt))


def jvp(func, primals, tangents):
    """``(func(*primals), directional derivative along tangents)``."""
    return _provider(_JVP, func, "a directional derivative")(func, tuple(primals), tuple(tangents))
