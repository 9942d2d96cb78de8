"""A function's source lines, as ``inspect.getsourcelines`` gives them, without tokenizing.

``inspect`` finds where a ``def`` ends by running the tokenizer over it in Python, token by
token: a fifth of the transformation's parsing time.  The lines show where it ends in the
usual case: the first later line of code indented no deeper than the ``def`` (blank lines and
comments aside).  A line that only looks so (inside a string or brackets) leaves the lines
before it unparseable, so ``parse`` checks every guess and falls back to ``inspect``.
"""

import ast
import inspect
import re
import textwrap

__all__ = ["source_lines"]

_HEADER = re.compile(r"(async\s+)?def\s")


def source_lines(fn):
    """(lines, first line number, module of the dedented lines or None): ``module`` is
    ``ast.parse`` of them when the lines were found here (None: inspect's, not parsed yet)."""
    fn = inspect.unwrap(fn)
    lines, lnum = inspect.findsource(fn)
    found = None if fn.__name__ == "<lambda>" else _guess(lines, lnum)
    if found is not None:
        return found[0], lnum + 1, found[1]
    return inspect.getblock(lines[lnum:]), lnum + 1, None


def _indent(line):
    """Columns of indentation (None: tabs or form feeds, which the tokenizer counts otherwise)."""
    rest = line.lstrip(" ")
    return None if rest[:1] in ("\t", "\f") else len(line) - len(rest)


def _code(line):
    """Is the line more than blanks and a comment?"""
    rest = line.strip()
    return bool(rest) and not rest.startswith("#")


def _guess(lines, lnum):
    """(inspect.getblock(lines[lnum:]), its module) when the lines show where the def ends."""
    start = _indent(lines[lnum])
    if start is None:
        return None
    i = lnum
    while i < len(lines) and _indent(lines[i]) == start and lines[i][start] == "@":
        i += 1                           # one-line decorators
    if i == len(lines) or _indent(lines[i]) != start or not _HEADER.match(lines[i], start):
        return None
    end = i + 1                          # the first line after the def: code no deeper than it
    while end < len(lines):
        if _code(lines[end]):
            indent = _indent(lines[end])
            if indent is None:
                return None
            if indent <= start:
                break
        end += 1
    last = end                           # without the blank lines and comments before `end`
    while last > i + 1 and not _code(lines[last - 1]):
        last -= 1
    block = lines[lnum:last]
    try:
        module = ast.parse(textwrap.dedent("".join(block)))
    except SyntaxError:
        return None                      # a guess inside a string or brackets: inspect's
    node = module.body[0] if module.body else None
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or node.end_lineno != len(block) \
            or len(module.body) != 1:
        return None
    # inspect keeps the comments after the last statement indented at least as deep as the
    # body, when the body starts on a line of its own (``def f(x): return x`` has none)
    first = node.body[0]
    line, col = lines[lnum + first.lineno - 1], first.col_offset + start
    if not line[:col].strip():
        for k in range(last, end):
            rest = lines[k].lstrip()
            if rest.startswith("#") and len(lines[k]) - len(rest) >= col:
                last = k + 1
    return lines[lnum:last], module
