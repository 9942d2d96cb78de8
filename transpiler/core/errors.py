"""The one error the transpiler raises for user code it cannot differentiate.

It is a ``SyntaxError`` subclass so Python's own traceback printer shows the user's file,
line, the offending source line and a caret -- the transpiler's internals never appear in
what the user reads.  Every message ends with a sentence on what to do instead.
"""

import linecache

__all__ = ["TranspileError", "Unresolved", "ZeroGradientWarning"]


class TranspileError(SyntaxError):
    """A construct adjoin cannot differentiate yet (or a name it cannot resolve).

    ``str(err)`` is the full report: ``file:line:col: message``, the source line, a caret,
    and the hint.
    """

    def __init__(self, message, filename=None, lineno=None, col=None, text=None, hint=None):
        if text is None and filename and lineno:
            text = linecache.getline(filename, lineno) or None
        self.reason = message
        self.hint = hint
        if hint:
            hint = hint[:1].upper() + hint[1:]
            hint = hint if hint.endswith((".", ")")) else hint + "."
        full = message if not hint else f"{message}. {hint}"
        super().__init__(full, (filename or "<unknown>", lineno or 0, (col or 0) + 1, text))

    def __reduce__(self):       # SyntaxError's own would pass the formatted message back in
        return type(self), (self.reason, self.filename, self.lineno, (self.offset or 1) - 1, self.text, self.hint)

    def __str__(self):
        where = f"{self.filename}:{self.lineno}:{self.offset}"
        out = [f"{where}: {self.msg}"]
        if self.text:
            line = self.text.rstrip("\n")
            stripped = line.lstrip()
            out.append("    " + stripped)
            caret = max(0, (self.offset or 1) - 1 - (len(line) - len(stripped)))
            out.append("    " + " " * caret + "^")
        return "\n".join(out)


class Unresolved(Exception):
    """A free name is not defined yet; generation is retried on first use."""

    def __init__(self, name, node=None):
        super().__init__(name)
        self.name = name
        self.node = node


class ZeroGradientWarning(UserWarning):
    """A requested gradient is zero by structure (no differentiable path from the parameter to
    the returned value); issued once per generated variant, naming the line that cuts the path."""
