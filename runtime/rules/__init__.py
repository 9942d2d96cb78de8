"""Derivative rules, one family per module; importing this package registers all of them.

See ``registry`` for the rule conventions shared by the tape and the transpiler.
"""

from .registry import RULES, Rule, define, lookup, nondifferentiable, primitive  # noqa: F401
from . import support  # noqa: F401
from . import arithmetic  # noqa: F401
from . import elementwise  # noqa: F401
from . import activations  # noqa: F401
from . import reductions  # noqa: F401
from . import shape  # noqa: F401
from . import pymath  # noqa: F401
from . import nondiff  # noqa: F401
from . import special  # noqa: F401
from . import nn  # noqa: F401
from . import linalg  # noqa: F401
from . import fft  # noqa: F401
from . import gather  # noqa: F401
from . import containers  # noqa: F401  (x[i] = v, lists, dicts)
from . import adjoint_helpers  # noqa: F401  (rules for what generated gradients call)
