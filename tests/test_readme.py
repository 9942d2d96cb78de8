"""The README stays true: its examples are the demo, and they print what the README shows."""

import pathlib
import subprocess
import sys

from tests import docs_blocks

ROOT = pathlib.Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _demo_code():
    text = (ROOT / "examples" / "demo.py").read_text(encoding="utf-8")
    return text[text.index('"""', 3) + 3:].strip()


def test_readme_examples_are_the_demo():
    shown = [b.text.strip() for b, _ in docs_blocks.checks(docs_blocks.blocks(README)) if b.runs]
    assert len(shown) == 3
    assert "\n\n".join(shown) == _demo_code()


def test_the_demo_prints_what_the_readme_shows(tmp_path):
    shown = "".join(s.text for _, s in docs_blocks.checks(docs_blocks.blocks(README)) if s is not None)
    proc = subprocess.run([sys.executable, str(ROOT / "examples" / "demo.py")], capture_output=True,
                          text=True, timeout=120, cwd=tmp_path, env={"PYTHONPATH": str(ROOT), "PATH": ""})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == shown


def test_readme_set_up_commands_are_the_ci_commands():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert 'pip install -e ".[test]" && python -m pytest' in README
    assert 'pip install -e ".[test]"' in ci and "python -m pytest" in ci


def test_readme_is_short_and_links_only_existing_pages():
    import re
    assert len(README.splitlines()) <= 250
    for target in re.findall(r"\]\(([^)#]+)", README):
        if "://" not in target:
            assert (ROOT / target).exists(), target
