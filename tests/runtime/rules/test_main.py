"""The README's "Supported primitives" table is exactly what ``python -m runtime.rules --list`` prints."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def test_readme_table_matches_the_command():
    out = subprocess.run([sys.executable, "-m", "runtime.rules", "--list"], capture_output=True, text=True,
                         cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT), check=True).stdout
    readme = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    start = readme.index("## Supported primitives")
    section = readme[start:readme.index("\n## ", start + 1)]
    table = section[section.index("<!-- generated"):].rstrip("\n") + "\n"
    assert table == out, "README table is stale: paste the output of `python -m runtime.rules --list`"


def test_list_without_flag_shows_help():
    res = subprocess.run([sys.executable, "-m", "runtime.rules"], capture_output=True, text=True, cwd=ROOT,
                         env=dict(os.environ, PYTHONPATH=ROOT))
    assert res.returncode == 1 and "--list" in res.stdout
