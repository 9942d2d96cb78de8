"""Derivative rules, one family per module; importing this package registers all of them.

See ``registry`` for the rule conventions shared by the tape and the transpiler.
"""

from .registry import RULES, Rule, define, lookup, nondifferentiable, primitive  # noqa: F401
from . import support  # noqa: F401
from . import arithmetic  # noqa: F401
