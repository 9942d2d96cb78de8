"""The bridge to runtime's tape, loaded on first use: ``import transpiler`` loads no tape.

* A ``@differentiate``d function called on runtime tensors is recorded as one op (tape_call.py,
  tensor_arguments.py).  ``has_tensor`` loads them when a tensor first reaches such a function;
  before runtime's tensor module is imported no tensor can exist, so until then it answers no
  without looking.
* ``tf.*`` calls inside a differentiated function are written as numpy code (tf_calls.py and
  the numpy twins in tf_twins/).  The front end lies below this layer, so this module registers
  the rewrite with core/callables.py when it is imported (the surface imports it); the rewrite
  loads tf_calls.py when a function first calls something of runtime's.
"""

import sys

from runtime.rules.registry import alias_for

from ..core import annotations as anno
from ..core.callables import register_tf_calls
from ..frontend.traversal import calls

__all__ = ["has_tensor", "call"]

TENSOR_MODULE = "runtime.engine.tensor"
"""The module that defines runtime's tensor classes (tests/transpiler/bridge checks the name)."""


def has_tensor(args, kwargs):
    """Whether any argument (at any depth of lists/tuples/dicts) is a runtime tensor."""
    if TENSOR_MODULE not in sys.modules:
        return False
    from .tensor_arguments import has_tensor as found
    return found(args, kwargs)


def call(d, args, kwargs):
    """Differentiable ``d`` called with tensor arguments: one recorded op (tape_call.py)."""
    from .tape_call import call as recorded
    return recorded(d, args, kwargs)


def _rewrite_tf_calls(core, ctx):
    """``core`` with its ``tf.*`` calls written as numpy code; tf_calls.py is loaded only for a
    function that calls something of runtime's (a function, an alias, a custom gradient)."""
    for node in calls(core):
        fn = anno.get(node, "prim")
        if fn is not None and _of_runtime(fn):
            from .tf_calls import rewrite_tf_calls
            return rewrite_tf_calls(core, ctx)
    return core


def _of_runtime(fn):
    """Could tf_calls.py rewrite or refuse a call of ``fn``?  (It looks only at these.)"""
    mod = getattr(fn, "__module__", None) or ""
    if mod.startswith("runtime") and not mod.startswith("runtime.rules"):
        return True
    return getattr(fn, "_custom_gradient_rule_of", None) is not None or alias_for(fn) is not None


register_tf_calls(_rewrite_tf_calls)
