"""The documentation's primitives table (docs/reference/primitives.md) is exactly what
``python -m runtime.rules --list`` prints."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def test_docs_table_matches_the_command():
    out = subprocess.run([sys.executable, "-m", "runtime.rules", "--list"], capture_output=True, text=True,
                         cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT), check=True).stdout
    page = open(os.path.join(ROOT, "docs", "reference", "primitives.md"), encoding="utf-8").read()
    table = page[page.index("<!-- generated"):].rstrip("\n") + "\n"
    assert table == out, ("docs/reference/primitives.md is stale: replace everything from its `<!-- generated` "
                          "line down with the output of `python -m runtime.rules --list`")


def test_list_without_flag_shows_help():
    res = subprocess.run([sys.executable, "-m", "runtime.rules"], capture_output=True, text=True, cwd=ROOT,
                         env=dict(os.environ, PYTHONPATH=ROOT))
    assert res.returncode == 1 and "--list" in res.stdout
