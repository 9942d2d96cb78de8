"""Derivative rules, one family per module, each imported when one of its rules is first needed.

``lookup(fn)`` finds a callable's rule, importing its family (``index`` says which); code that
enumerates every rule calls ``load_all()`` first.  See ``registry`` for the rule conventions
shared by the tape and the transpiler, and ``forms`` for writing a rule once for both modes.
"""

import importlib

from .registry import FAMILIES, RULES, Rule, define, load_all, lookup, nondifferentiable, primitive  # noqa: F401


def __getattr__(name):
    """``runtime.rules.trig`` and the like without importing each family up front."""
    if name in FAMILIES or name in ("registry", "forms", "index"):
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
