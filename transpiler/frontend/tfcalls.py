"""``tf.*`` calls in a function being differentiated: written as the numpy primitive they are.

Generated code is numpy code, and a ``runtime`` op called on numpy arrays returns a Tensor,
so ``tf.reduce_sum(x, axis=1)`` cannot stay as it is.  The rule set declares which ``tf``
functions are a primitive under another name (``runtime/aliases.py``); this pass, run right
after normalization, rewrites each such call into the primitive's call (``np.sum(x,
axis=1)``), so the rest of the pipeline sees only primitives.  Any other ``runtime`` function
is rejected with a TranspileError that says what to write instead.
"""

import ast
import inspect

import numpy as np

from runtime.rules.registry import alias_for, lookup

__all__ = ["rewrite_tf_calls"]

_HINTS = {
    "constant": "use a Python number or np.asarray(value, dtype=np.float64)",
    "convert_to_tensor": "use np.asarray(value)",
    "gather": "index the array instead: x[i] or np.take(x, i, axis=...)",
    "where": "use np.where(condition, x, y)",
    "squared_difference": "write (x - y) ** 2",
    "rsqrt": "write 1.0 / np.sqrt(x)",
    "reduce_variance": "use np.var(x, axis=...)",
    "reduce_std": "use np.std(x, axis=...)",
    "add_n": "add the terms with +",
    "tensordot": "use np.tensordot(a, b, axes)",
    "zeros_like": "use np.zeros_like(x)",
    "ones_like": "use np.ones_like(x)",
    "cast": "use x.astype(np.float64)",
}


def rewrite_tf_calls(core, ctx):
    """Rewrite aliased ``tf`` calls in ``core`` in place; reject other runtime functions."""
    for node in ast.walk(core):
        if not isinstance(node, ast.Call):
            continue
        fn = getattr(node, "_prim", None)
        if fn is None:
            continue
        spec = alias_for(fn)
        if spec is not None:
            _rewrite(node, spec, ctx)
        elif getattr(fn, "_custom_gradient_rule_of", None) is not None:
            name = fn._custom_gradient_rule_of.__qualname__
            raise ctx.error(
                f"this calls the derivative rule of the tf.custom_gradient function {name}(), "
                "which the transpiler cannot differentiate again", node,
                "for higher derivatives through a custom gradient, use nested GradientTapes: "
                "they differentiate grad_fn's own ops")
        elif _is_runtime_op(fn):
            name = _public_name(fn)
            raise ctx.error(
                f"{name} is a TensorFlow-style op that adjoin's transpiler cannot write as numpy code",
                node, _HINTS.get(getattr(fn, "__name__", ""), "write it with numpy functions here, "
                                 "or compute it outside the @differentiate function and pass it in"))
    return core


def _rewrite(call, spec, ctx):
    """``tf.f(a, axis=1)`` -> ``np.g(a, axis=1)`` following the alias's parameter map."""
    name = _public_name(spec.fn)
    try:
        bound = inspect.signature(spec.fn).bind(*call.args, **{k.arg: k.value for k in call.keywords})
    except TypeError as e:
        raise ctx.error(f"{name}(): {e}", call, "check the arguments against TensorFlow's signature")
    args, keywords, missing = [], [], False
    for param in spec.positional:
        if param not in bound.arguments:
            missing = True
            continue
        if missing:
            raise ctx.error(f"{name}(): pass `{param}` together with the arguments before it", call,
                            "give every earlier argument explicitly")
        args.append(_axis_tuple(param, bound.arguments[param]))
    defaults = inspect.signature(spec.fn).parameters
    for param, value in bound.arguments.items():
        if param in spec.positional or param == "name" or _is_default(value, defaults[param]):
            continue
        if param not in spec.keywords:
            raise ctx.error(f"{name}(..., {param}=...) has no numpy counterpart in differentiated code",
                            call, f"leave `{param}` at its default, or write the computation with numpy")
        keywords.append(ast.keyword(spec.keywords[param], _axis_tuple(param, value)))
    target = spec.canonical
    attr = getattr(target, "__name__", None)
    if attr is not None and getattr(np, attr, None) is target:
        call.func = ctx.ref_attr(np, "np", attr)
    else:
        call.func = ctx.ref(target, attr or "primitive")
    call.args, call.keywords = args, keywords
    call._prim = target


def _axis_tuple(param, value):
    """TF takes a list of axes (``tf.reduce_sum(t, [0, 1])``); numpy takes only a tuple."""
    if param == "axis" and isinstance(value, ast.List):
        return ast.copy_location(ast.Tuple(list(value.elts), ast.Load()), value)
    return value


def _is_default(value, param):
    """An explicit argument equal to the parameter's literal default (``transpose_a=False``)."""
    return isinstance(value, ast.Constant) and param.default is not inspect.Parameter.empty \
        and type(value.value) is type(param.default) and value.value == param.default


def _is_runtime_op(fn):
    mod = getattr(fn, "__module__", None) or ""
    return mod.startswith("runtime") and not mod.startswith("runtime.rules") and lookup(fn) is None


def _public_name(fn):
    """``tf.math.reduce_sum``-style name for a runtime function (as a TF user writes it)."""
    import runtime

    short = getattr(fn, "__name__", repr(fn))
    for prefix, module in (("tf", runtime), ("tf.math", runtime.math), ("tf.nn", runtime.nn),
                           ("tf.linalg", runtime.linalg)):
        if getattr(module, short, None) is fn:
            return f"{prefix}.{short}"
    return f"{getattr(fn, '__module__', 'runtime')}.{short}"
