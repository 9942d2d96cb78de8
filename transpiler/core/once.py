"""One generation at a time, so threads can share the caches of generated code.

Generating a variant reads and fills several tables (the per-function cache, the callees being
generated, memo tables of the passes); two threads filling them at once would each keep a
different object, and a weakly held one could die under the other.  Generation is pure Python
under the GIL, so running it one thread at a time costs no parallelism.  The lock is reentrant:
generating a function generates its callees.  Reads of what is already made take no lock.
"""

import ast
import threading

__all__ = ["GENERATING", "once", "parse"]

GENERATING = threading.RLock()


def once(table, key, make):
    """``table[key]``, made by ``make()`` the first time (by one thread; the others wait for it)."""
    found = table.get(key)
    if found is not None:
        return found
    with GENERATING:
        found = table.get(key)
        if found is None:
            found = table[key] = make()
        return found


def parse(text, **kwargs):
    """``ast.parse``, one thread at a time: CPython 3.11 keeps the AST constructor's recursion
    count per interpreter, so two threads parsing at once fail with "AST constructor recursion
    depth mismatch" (fixed in later versions).  Parsing done while generating holds the lock already."""
    with GENERATING:
        return ast.parse(text, **kwargs)
