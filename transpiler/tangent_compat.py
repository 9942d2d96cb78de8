"""What ``grad`` needs to read calls written for Google's Tangent (``tangent.grad``).

Tangent's gradient functions take the output's cotangent (the seed) as one extra
positional argument, can check that the seed has the output's shape (``check_dims``)
and print every stage of the transformation (``verbose=2``).  These helpers give
``transpiler.grad`` the same conventions without touching the passes.
"""

import inspect

import numpy as np

from .backend.codegen import to_source

__all__ = ["split_seed", "check_dims", "show_stages"]

_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def split_seed(signature, args, kwargs):
    """``(args, seed)``: one positional argument beyond ``f``'s own is the seed, as in Tangent."""
    names = signature.parameters
    if len(args) <= len(names) and (not names or names[next(reversed(names))].kind in _POSITIONAL):
        return args, None   # every parameter positional (the last one is), none left over: no seed
    params = names.values()
    if any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in params):
        return args, None          # f(*args): every positional argument is f's own
    if len(args) == sum(p.kind in _POSITIONAL for p in params) + 1:
        return args[:-1], args[-1]
    return args, None


def check_dims(name, value, seed):
    """Tangent's ``check_dims=True``: the seed must have the output's shape (1.0 by default)."""
    outs = value if isinstance(value, tuple) else (value,)
    seeds = seed if isinstance(seed, tuple) else (1.0,) * len(outs) if seed is None else (seed,)
    for out, s in zip(outs, seeds):
        if np.shape(out) != np.shape(s):
            given = "the default seed 1.0" if seed is None else f"the seed, of shape {np.shape(s)}"
            raise ValueError(
                f"{name}: check_dims=True: the output has shape {np.shape(out)} but {given} "
                f"does not match; pass a seed of shape {np.shape(out)} as the last argument, or "
                "use check_dims=False to seed an array output with ones")


def show_stages(gen, verbose):
    """``verbose=1``: the generated code; ``verbose=2``: each pass's output first."""
    if verbose >= 2:
        for stage, node in gen.stages.items():
            if stage != "optimized":
                print(f"# --- {stage} ---")
                print(to_source(node), end="")
        print("# --- generated ---")
    print(gen.source, end="")
