"""Source text that travels with a pickled gradient, for processes that cannot read the file.

A function of a script's ``__main__`` or of a notebook cell arrives by value (cloudpickle) in
a process that has neither the script nor the cell, and adjoin regenerates its gradient there
from source.  So ``grad(f)`` and ``@differentiate`` objects pickle the source of ``f`` and of
the user functions its generated code calls; unpickling attaches it to the functions, where
``parse_function`` reads it instead of the file.
"""

import inspect
import sys

from ...core.callables import transformer

__all__ = ["carried", "attach", "importable"]


def importable(obj):
    """True when pickle finds ``obj`` by name (defined at the top of an importable module)."""
    mod = getattr(obj, "__module__", None)
    if mod in (None, "__main__") or mod not in sys.modules:
        return False
    found = sys.modules[mod]
    for part in obj.__qualname__.split("."):
        found = getattr(found, part, None)
    return found is obj


def carried(t):
    """``[(function, (filename, first line, text))]`` for the function whose generated code
    ``t`` caches and the user functions that code calls, when another process may not read
    their source: defined in ``__main__``, a notebook cell or a module it may not have."""
    out, todo, seen = [], [t], set()
    while todo:
        t = todo.pop()
        if t.fn in seen:
            continue
        seen.add(t.fn)
        parsed = None
        for gen in t.cache.values():
            parsed = gen.ctx.parsed
            todo.extend(transformer(obj.fn) for obj in gen.ctx.injected.values()
                        if getattr(obj, "_adjoin_callee", False) and inspect.isfunction(obj.fn))
        if parsed is None or not inspect.isfunction(parsed.fn):
            continue
        mod = parsed.fn.__module__
        if mod == "__main__" or mod not in sys.modules or parsed.filename.startswith("<"):
            text = "".join(parsed.lines[i] for i in sorted(parsed.lines))
            out.append((parsed.fn, (parsed.filename, min(parsed.lines), text)))
    return out


def attach(sources):
    """Give each unpickled function the source it travelled with (read by ``parse_function``)."""
    for fn, source in sources:
        fn._adjoin_source = source
