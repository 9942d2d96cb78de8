"""Code blocks of the documentation (docs/*.md, README.md): which run, and what they must print.

The convention, for page authors (docs/internals/testing.md says the same):

- A ```python block runs. A page's blocks run in order in one fresh interpreter, in a temporary
  folder, sharing one namespace (like a notebook's cells), so a later block may use an earlier
  block's names.
- ``<!-- prints -->`` on the line before a fence: that block is exactly what the python block
  before it printed (stdout). A line holding only ``...`` matches any number of lines, and ``...``
  within a line any text (a temporary folder's path, say).
- A ```console block runs too: each ``$ command`` line runs in the page's folder (``python`` is
  the interpreter running the tests), and the other lines are its output, stdout and stderr as
  a terminal shows them (``...`` as above).
- ``<!-- file: NAME -->`` before a fence: the block is written to NAME in the page's folder when
  the page reaches it (a module for a later console command or import); it is not run itself.
- ``<!-- no-run: why -->`` before a python or console fence: shown, never run (a cluster, an
  install, a fragment). Say why.
- Any other fence (```bash, ```text, ```toml, ...) is only shown.

``python tests/docs_blocks.py prints README.md`` prints what a page's ``prints`` blocks show,
joined (CI compares it with what the demo prints from an installed wheel).
"""

import dataclasses
import os
import re
import subprocess
import sys

SENTINEL = "\x1e-- end of docs block --\x1e"
_FENCE = re.compile(r"^(?P<indent>\s*)(?P<ticks>`{3,})(?P<info>[^`]*)$")
_MARKER = re.compile(r"^\s*<!--\s*(?P<kind>prints|no-run|file)\s*(?::\s*(?P<arg>.*?))?\s*-->\s*$")


@dataclasses.dataclass
class Block:
    lang: str          # the fence's language ("python", "console", "text", ...)
    text: str          # its lines, the fence's indentation removed, ending in a newline
    line: int          # 1-based line of the opening fence
    marker: str = ""   # "prints", "no-run", "file" or ""
    arg: str = ""      # the marker's argument (a reason, a file name)

    @property
    def runs(self):
        return self.lang in ("python", "py", "console") and self.marker == ""


def blocks(markdown):
    """The fenced blocks of a markdown text, each with the marker comment just before it."""
    lines = markdown.splitlines()
    found, i = [], 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, ticks = m.group("indent"), m.group("ticks")
        lang = (m.group("info").strip().split() or [""])[0].lstrip("{.").rstrip("}")
        j = i + 1
        while j < len(lines) and not lines[j].strip().startswith(ticks):
            j += 1
        body = [ln[len(indent):] if ln.startswith(indent) else ln.lstrip() for ln in lines[i + 1:j]]
        prev = i - 1
        while prev >= 0 and not lines[prev].strip():
            prev -= 1
        mark = _MARKER.match(lines[prev]) if prev >= 0 else None
        found.append(Block(lang, "".join(ln + "\n" for ln in body), i + 1,
                           mark.group("kind") if mark else "", (mark.group("arg") or "") if mark else ""))
        i = j + 1
    return found


def checks(page_blocks):
    """(block that runs, the block showing its output or None) in page order; raises on a misplaced marker."""
    pairs = []
    for k, b in enumerate(page_blocks):
        if b.marker == "prints":
            before = page_blocks[k - 1] if k else None
            if before is None or not before.runs or before.lang not in ("python", "py"):
                raise ValueError(f"line {b.line}: <!-- prints --> must follow a python block that runs")
            pairs[-1] = (pairs[-1][0], b)
        elif b.marker == "no-run" and not b.arg:
            raise ValueError(f"line {b.line}: <!-- no-run: why --> needs its reason")
        elif b.runs or b.marker == "file":
            pairs.append((b, None))
    return pairs


def console_commands(text):
    """The ``$ command`` lines of a console block, and the output lines it shows."""
    cmds = [ln[2:] for ln in text.splitlines() if ln.startswith("$ ")]
    shown = "".join(ln + "\n" for ln in text.splitlines() if not ln.startswith("$ "))
    return cmds, shown


def script(pairs):
    """One Python program that runs a page's blocks in order, writing SENTINEL after each."""
    out = ["import subprocess as _docs_sp, sys as _docs_sys",
           "def _docs_end():",
           f"    _docs_sys.stdout.write({SENTINEL!r} + '\\n'); _docs_sys.stdout.flush()",
           "def _docs_console(cmds):",
           "    for cmd in cmds:",
           "        r = _docs_sp.run(cmd, shell=True, stdout=_docs_sp.PIPE, stderr=_docs_sp.STDOUT, text=True)",
           "        _docs_sys.stdout.write(r.stdout)",
           "        if r.returncode:",
           "            _docs_sys.stdout.write(f'[exit status {r.returncode}]\\n')",
           "    _docs_sys.stdout.flush()",
           ""]
    for block, _ in pairs:
        if block.marker == "file":
            out.append(f"open({block.arg!r}, 'w', encoding='utf-8').write({block.text!r})")
        elif block.lang == "console":
            out.append(f"_docs_console({console_commands(block.text)[0]!r})")
        else:
            out.append(block.text)
        out.append("_docs_end()")
    return "\n".join(out) + "\n"


def run(pairs, folder, root, timeout=600):
    """Run a page's program in ``folder``; the stdout of each block (a list) and the process."""
    path = os.path.join(folder, "docs_page.py")
    with open(path, "w", encoding="utf-8") as f:
        f.write(script(pairs))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([root] + [p for p in [env.get("PYTHONPATH")] if p])
    env["PATH"] = os.pathsep.join([os.path.dirname(sys.executable), env.get("PATH", "")])
    proc = subprocess.run([sys.executable, path], cwd=folder, env=env, capture_output=True, text=True,
                          timeout=timeout)
    return proc.stdout.split(SENTINEL + "\n"), proc


def expected(pair):
    """What a run block must print, or None when the page does not say."""
    block, shown = pair
    if block.lang == "console":
        return console_commands(block.text)[1]
    return shown.text if shown is not None else None


def matches(want, got):
    """``got`` equals ``want`` line by line (trailing spaces ignored); ``...`` alone on a line matches
    any lines, within a line any text."""
    def norm(text):
        return [ln.rstrip() for ln in text.splitlines()]
    def line(ln):
        return r"[^\n]*?".join(re.escape(part) for part in ln.split("...")) + r"\n"
    pattern = "".join(r"(?:[^\n]*\n)*?" if ln.strip() == "..." else line(ln) for ln in norm(want))
    return re.fullmatch(pattern, "".join(ln + "\n" for ln in norm(got))) is not None


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "prints":
        sys.exit("usage: python tests/docs_blocks.py prints PAGE.md")
    with open(sys.argv[2], encoding="utf-8") as f:
        sys.stdout.write("".join(shown.text for _, shown in checks(blocks(f.read())) if shown is not None))
