"""adjoin's transpiler: ahead-of-time, source-to-source reverse-mode differentiation.

``@differentiate`` reads a function's source and writes a new plain-numpy function that
computes its gradient -- no tape at run time.  ``f.show()`` prints that code.  The passes,
in order: parsing, normalize, analysis, reverse, optimize, codegen (see DESIGN.md).
"""

from .api import differentiate, grad, jvp, value_and_grad, vjp
from .core.errors import TranspileError
from .higher import hessian, hvp, jacobian

__all__ = ["differentiate", "grad", "value_and_grad", "vjp", "jvp", "hvp", "hessian", "jacobian",
           "TranspileError"]
