"""The README stays true: its demo output is what the demo prints."""

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_readme_shows_what_the_demo_prints():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index("The demo prints:\n\n```\n") + len("The demo prints:\n\n```\n")
    shown = readme[start:readme.index("```", start)]
    proc = subprocess.run([sys.executable, str(ROOT / "examples" / "demo.py")], capture_output=True,
                          text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == shown


def test_readme_set_up_commands_are_the_ci_commands():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert 'pip install -e ".[test]" && python -m pytest' in readme
    assert 'pip install -e ".[test]" && python -m pytest' in ci
