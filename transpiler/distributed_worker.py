"""The tasks dask workers run for ``transpiler.distributed``: plain Python and numpy only.

Workers never import this file (nor adjoin).  Its text is appended to the generated gradient's
standalone source, which travels to every worker once; each task is the small ``run``, sent by
value (``distributed.py`` executes this text under a module name no process can import), which
executes that source once per worker process and calls ``block`` or ``add`` in it.  That is
why a worker needs numpy and dask, and no install of adjoin.
"""

import linecache
import pickle
import sys
import types

import numpy as np


def run(name, source, task, *args):
    """Call ``task`` of the module ``name``, executed from ``source`` once per process."""
    module = sys.modules.get(name)
    if module is None:
        module = types.ModuleType(name)
        filename = f"<adjoin generated {name}>"
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        exec(compile(source, filename, "exec"), module.__dict__)
        sys.modules[name] = module     # the next task on this worker finds it here
    return getattr(module, task)(*args)


def block(packed, index, weight, *rows):
    """``(weight * value, weight * gradients)`` of one block of rows.

    ``packed`` is the pickled call (parameters and fixed arguments, shared by every block);
    ``rows`` are this block's parts of the data arguments.  The gradient is seeded with
    ``weight``, so the generated code scales it; it comes back in the parameters' structure.
    """
    call = pickle.loads(packed)
    args, kwargs = list(call["args"]), dict(call["kwargs"])
    for (where, key), part in zip(call["data"], rows):
        if where == "args":
            args[key] = part
        else:
            kwargs[key] = part
    kwargs[call["seed"]] = weight
    try:
        grads, value = globals()[call["function"]](*args, **kwargs)
    except Exception as error:
        raise _in_block(error, index, call["blocks"]) from None
    if np.ndim(value) != 0:
        raise ValueError(f"{call['name']}() returned a value of shape {np.shape(value)} in block "
                         f"{index}; a distributed gradient needs a scalar loss (sum or average it)")
    grads = (grads,) if call["single"] else tuple(grads)
    grads = tuple(restructure(g, like) for g, like in zip(grads, call["likes"]))   # noqa: F821
    return value * weight, grads


def _in_block(error, index, count):
    """``error`` with the block index added to its message (same type, same traceback)."""
    where = f"[in block {index} of {count}]"
    args = error.args
    if args and isinstance(args[0], str):
        try:
            again = type(error)(f"{args[0]} {where}", *args[1:])
        except Exception:
            again = None
        if again is not None:
            return again.with_traceback(error.__traceback__)
    if hasattr(error, "add_note"):
        error.add_note(where)
    return error


def add(*parts):
    """The sum of ``(value, gradients)`` pairs: one node of the tree reduction."""
    value, grads = parts[0]
    for more_value, more_grads in parts[1:]:
        value = value + more_value
        grads = _add_tree(grads, more_grads)
    return value, grads


def _add_tree(a, b):
    if isinstance(a, dict):
        return {k: _add_tree(v, b[k]) for k, v in a.items()}
    if isinstance(a, (list, tuple)):
        return type(a)(_add_tree(x, y) for x, y in zip(a, b))
    return a + b
