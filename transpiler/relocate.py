"""An exception escaping generated code, raised again at the user's line.

Generated code runs the user's statements (its primal sweep) and their adjoints; an exception
in it -- the user's own ``raise`` or failing ``assert``, numpy refusing a shape, or an adjoint
refusing a value -- would otherwise end its traceback in ``<adjoin N: dfdx>`` or in one of
adjoin's helpers.  ``located`` keeps the same exception object (same type, same message) and
ends its traceback with a frame at the user's file and line instead, the statement the
failing generated line came from (``codegen.origin`` knows each generated file's AST, whose
statements carry the user's line numbers).  Only the error path pays for this.
"""

import ast
import sys
import types

from .backend.codegen import origin
from .core.errors import TranspileError
from .core.once import parse
from .core.ir import COMMENT

__all__ = ["located", "raised_at", "user_line", "user_level"]

_GENERATED = "<adjoin"


def located(exc):
    """``exc``, caught by the caller of generated code, with its traceback ending at the user's
    line (the caller's own frame dropped: ``raise located(e)`` adds it back).  Unchanged when no
    frame of generated code can be traced to a user's line."""
    tb = exc.__traceback__
    entries = []
    while tb is not None:
        entries.append((tb.tb_frame, tb.tb_lasti, tb.tb_lineno))
        tb = tb.tb_next
    entries = entries[1:]
    inner = max((i for i, (frame, _, _) in enumerate(entries)
                 if frame.f_code.co_filename.startswith(_GENERATED)), default=None)
    if inner is None:
        return exc
    if isinstance(exc, TranspileError) and exc.filename and not str(exc.filename).startswith("<"):
        where = (exc.filename, exc.lineno, entries[inner][0].f_code.co_name)
    else:
        frame, _, lineno = entries[inner]
        where = _user_place(frame.f_code.co_filename, lineno)
    if where is None:
        return exc
    tail = _frame_at(exc, *where)
    if tail is None:
        return exc
    for frame, lasti, lineno in reversed(entries[:inner + 1]):
        tail = types.TracebackType(tail, frame, lasti, lineno)
    exc.with_traceback(tail)
    # the new frame's caller is this frame, which the traceback keeps: drop what it holds, or the
    # exception would hold itself (and the gradient's frames, checkpointed loops among them)
    # until the cyclic collector runs
    box = [exc]
    del exc, tail, entries, frame, tb
    return box.pop()


def raised_at(exc):
    """``(file, line)`` of the user's statement whose generated code raised ``exc`` (the innermost
    frame of generated code), or None when no frame of it can be traced to a user's line."""
    tb, place = exc.__traceback__, None
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if name.startswith(_GENERATED):
            place = (name, tb.tb_lineno)
        tb = tb.tb_next
    found = place and _user_place(*place)
    return found[:2] if found else None


def _user_place(filename, lineno):
    """``(file, line, function name)`` of the user's statement behind line ``lineno`` of the
    generated file ``filename`` (code generated from generated code is followed back too)."""
    seen = set()
    while filename.startswith(_GENERATED) and filename not in seen:
        seen.add(filename)
        found = origin(filename)
        if found is None:
            return None
        node, code, parsed = found
        # compile_function adds one line on top; a line the gradient adds (no user statement
        # behind it) is placed at the function's def line
        line = user_line(node, code, lineno - 1, parsed) or parsed.node.lineno
        filename, lineno, name = parsed.filename, line, parsed.name
    return None if filename.startswith(_GENERATED) else (filename, lineno, name)


def _frame_at(exc, filename, lineno, name):
    """A traceback entry whose frame is at ``filename:lineno`` in a function called ``name``
    (what a traceback prints there is the user's own line, read from the file)."""
    box, namespace = [], {"__adjoin_exc": exc}
    try:
        code = compile("\n" * (lineno - 1) + "raise __adjoin_exc", filename, "exec")
        code = code.replace(co_name=name)
        exec(code, namespace)
    except BaseException as e:       # noqa: BLE001  (the exception itself, raised there)
        if e is exc:
            tb = e.__traceback__
            while tb is not None and tb.tb_frame.f_code is not code:
                tb = tb.tb_next
            if tb is not None:
                tb.tb_next = None
                box.append(tb)
            del tb
    namespace.clear()       # the new frame's globals
    del exc, code           # (as in located: this frame stays, as the new frame's caller)
    return box.pop() if box else None


def user_line(node, code, line, parsed):
    """The user's line behind line ``line`` of ``code`` (printed from ``node``): a statement of
    the primal sweep keeps its user line number; one of the adjoint sweep follows the nearest
    ``# grad of:`` comment above it, whose text is the user's statement."""
    mine = [s for s in ast.walk(node) if isinstance(s, ast.stmt) and not isinstance(s, ast.FunctionDef)
            and not _is_comment(s)]
    printed = [s for s in ast.walk(parse(code).body[0]) if isinstance(s, ast.stmt)
               and not isinstance(s, ast.FunctionDef)]
    if len(mine) == len(printed):
        for ours, theirs in zip(mine, printed):
            if theirs.lineno == line and getattr(ours, "lineno", node.lineno) != node.lineno:
                return ours.lineno
    text = code.splitlines()
    for k in range(min(line, len(text)) - 1, -1, -1):
        stripped = text[k].strip()
        if stripped.startswith("# grad of: "):
            first = stripped[len("# grad of: "):].strip()
            for number, user in sorted(parsed.lines.items()):
                if user.strip() == first:
                    return number
            return None
    return None


def _is_comment(s):
    return isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and \
        isinstance(s.value.value, str) and s.value.value.startswith(COMMENT)


def user_level():
    """The ``stacklevel`` of a warning that should point at the user's call: the first frame
    outside adjoin (its packages and the generated code, which runs in the user's globals)."""
    frame, level = sys._getframe(1), 1
    while frame is not None and (frame.f_globals.get("__name__", "").partition(".")[0] in ("transpiler", "runtime")
                                 or frame.f_code.co_filename.startswith(_GENERATED)):
        frame, level = frame.f_back, level + 1
    return level
