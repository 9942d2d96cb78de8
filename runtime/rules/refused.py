"""Partial derivatives that exist but adjoin does not compute: a rule slot that refuses.

The order ``v`` of ``scipy.special.iv(v, x)``, the shape ``a`` of ``gammainc(a, x)``: the function
is differentiable there, but no closed form gives the derivative.  A ``None`` slot would say "no
gradient flows here" (right for an integer index, a silent zero for these), so ``refuse(fn,
argnum, why)`` puts a ``NoDerivative`` in that slot instead.  Gradient-flow analysis sees a rule
there, so a value that needs this derivative reaches it, and the user is told:

* the transpiler refuses at the call's line (``TranspileError`` with the message below);
* the tape raises ``NoDerivativeError`` when a gradient (or a forward tangent) actually passes
  through that argument -- a constant there, or a gradient asked only of other sources, is fine.
"""

from .registry import lookup

__all__ = ["NoDerivative", "NoDerivativeError", "refuse"]


class NoDerivativeError(NotImplementedError):
    """A gradient asked for a partial derivative adjoin does not compute (see ``refuse``)."""


class NoDerivative:
    """The VJP/JVP slot of an argument whose derivative adjoin does not compute: calling it raises."""

    def __init__(self, primitive, param, why, module):
        self.primitive, self.param, self.why = primitive, param, why
        self.__module__ = module            # the family registering it (the rules table reads it)
        self.__name__ = f"{primitive.rpartition('.')[2]}_no_derivative_{param}"

    @property
    def message(self):
        return f"{self.primitive}() has no derivative with respect to `{self.param}` in adjoin: {self.why}"

    hint = ("pass a constant there (a value that does not depend on what is differentiated), or "
            "differentiate with respect to the other arguments only")

    def __call__(self, *args, **kwargs):
        raise NoDerivativeError(f"{self.message}; {self.hint}")

    def __repr__(self):
        return f"<NoDerivative {self.primitive} wrt {self.param}>"


def refuse(fn, argnum, param, why, name=None):
    """Make ``fn``'s rule refuse a gradient through positional argument ``argnum`` (named ``param``)."""
    import sys
    rule = lookup(fn)
    if rule is None:
        raise ValueError(f"refuse({fn!r}): register its rules first")
    module = sys._getframe(1).f_globals.get("__name__", __name__)
    slot = NoDerivative(name or rule.name, param, why, module)
    for attr in ("vjps", "jvps"):
        slots = list(getattr(rule, attr)) + [None] * (argnum + 1 - len(getattr(rule, attr)))
        slots[argnum] = slot
        setattr(rule, attr, tuple(slots))
    return slot
