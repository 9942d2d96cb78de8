"""adjoin's transpiler: ahead-of-time, source-to-source reverse-mode differentiation.

``@differentiate`` reads a function's source and writes a new plain-numpy function that
computes its gradient -- no tape at run time.  ``f.show()`` prints that code.  The passes,
in order: parsing, normalize, analysis, reverse (or forward), optimize, codegen (see DESIGN.md).

The package is layered; a module imports only its own layer and the ones below (the order and
the core IR's contract: core/ir.py; tests/test_layers.py checks it):

    surface    api, differentiable, variants, generate, higher, tangent_compat, __main__
               (this package's top level)
    bridge/    to runtime's tape, loaded on first use: a differentiated function on tensors
               (tape_call), tf.* calls in differentiated code (tf_calls, tf_twins/)
    modes/     reverse, forward, split, stacks, calls, again: core IR -> derivative code
    analysis/  activity: facts about the core IR
    backend/   templates, optimize, codegen
    frontend/  normalize and its constructs (source, control, calls, containers, objects, effects):
               source -> core IR
    core/      ir, context, errors, callables (hooks the surface registers for the layers below)
"""

from runtime._version import __version__

from .api import differentiate, grad, jvp, value_and_grad, vjp
from .core.errors import TranspileError, ZeroGradientWarning
from .higher import hessian, hvp, jacobian

__all__ = ["differentiate", "grad", "value_and_grad", "vjp", "jvp", "hvp", "hessian", "jacobian",
           "TranspileError", "ZeroGradientWarning"]
