"""Room on the stack for deep expressions.

The passes walk the AST recursively (visitors, copies, the printer), a few frames per level
of nesting.  CPython compiles expressions nested far deeper than its default recursion limit
lets such a walk go (a sum of 1,000 terms is a chain 1,000 deep), and what CPython runs adjoin
must read.  ``room_for(levels)`` raises the recursion limit to what an AST ``levels`` deep
(``depth``) needs.  Shallow functions change nothing: the limit is process-wide, and on
CPython 3.11 changing it while another thread parses or compiles breaks that thread
("AST constructor recursion depth mismatch").  For the same reason a raised limit is never
lowered again, and raising it is serialised.
"""

import contextlib
import sys
import threading

__all__ = ["depth", "room_for"]

FRAMES_PER_LEVEL = 8        # measured: about 3 per level of a chain of + (grad, jvp, hvp, grad of grad)
MARGIN = 1000


def depth(node):
    """How deeply ``node``'s AST nests (iteratively: it may be deeper than the recursion limit)."""
    deepest, todo = 0, [(node, 1)]
    while todo:
        n, d = todo.pop()
        deepest = max(deepest, d)
        for field in n._fields:
            value = getattr(n, field, None)
            if isinstance(value, list):
                todo.extend((v, d + 1) for v in value if hasattr(v, "_fields"))
            elif hasattr(value, "_fields"):
                todo.append((value, d + 1))
    return deepest


def _stack_depth():
    frame, n = sys._getframe(), 0
    while frame is not None:
        frame, n = frame.f_back, n + 1
    return n


_raising = threading.Lock()


@contextlib.contextmanager
def room_for(levels):
    """Run the block with a recursion limit high enough to walk an AST ``levels`` deep."""
    if FRAMES_PER_LEVEL * levels > sys.getrecursionlimit() // 2:
        need = _stack_depth() + FRAMES_PER_LEVEL * levels + MARGIN
        with _raising:
            if need > sys.getrecursionlimit():
                sys.setrecursionlimit(need)
    yield
