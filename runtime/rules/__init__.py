"""Derivative rules, one family per module; importing this package registers all of them.

See ``registry`` for the rule conventions shared by the tape and the transpiler.
"""

from .registry import RULES, Rule, define, lookup, nondifferentiable, primitive  # noqa: F401
from . import support  # noqa: F401
from . import arithmetic  # noqa: F401
from . import elementwise  # noqa: F401
from . import trig  # noqa: F401
from . import selection  # noqa: F401
from . import complexes  # noqa: F401
from . import activations  # noqa: F401
from . import reductions  # noqa: F401
from . import nanreductions  # noqa: F401
from . import statistics  # noqa: F401
from . import shape  # noqa: F401
from . import arrange  # noqa: F401
from . import joining  # noqa: F401
from . import products  # noqa: F401
from . import sorting  # noqa: F401
from . import selecting  # noqa: F401
from . import polynomials  # noqa: F401
from . import arrayapi  # noqa: F401
from . import emath  # noqa: F401
from . import calculus  # noqa: F401
from . import pymath  # noqa: F401
from . import pyspecial  # noqa: F401
from . import nondiff  # noqa: F401
from . import special  # noqa: F401
from . import nn  # noqa: F401
from . import conv  # noqa: F401
from . import linalg  # noqa: F401
from . import fft  # noqa: F401
from . import gather  # noqa: F401
from . import containers  # noqa: F401  (x[i] = v, lists, dicts)
from . import adjoint_helpers  # noqa: F401  (rules for what generated gradients call)
