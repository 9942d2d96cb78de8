"""The documentation says only what the code does: every code block in docs/ runs, and prints what
the page shows (the convention: tests/docs_blocks.py). One interpreter per page."""

import pathlib

import pytest

from tests import docs_blocks

ROOT = pathlib.Path(__file__).resolve().parents[1]
PAGES = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").rglob("*.md"))


def test_there_are_pages():
    assert len(PAGES) >= 10, PAGES


@pytest.mark.parametrize("page", PAGES)
def test_page_runs_and_prints_what_it_shows(page, tmp_path):
    pairs = docs_blocks.checks(docs_blocks.blocks((ROOT / page).read_text(encoding="utf-8")))
    if not any(block.runs for block, _ in pairs):
        return                                   # a page of prose, tables and shell commands only
    outputs, proc = docs_blocks.run(pairs, str(tmp_path), str(ROOT))
    ran = len(outputs) - 1
    assert proc.returncode == 0 and ran == len(pairs), (
        f"{page}: the block at line {pairs[min(ran, len(pairs) - 1)][0].line} failed:\n{proc.stderr[-4000:]}")
    for pair, got in zip(pairs, outputs):
        want = docs_blocks.expected(pair)
        if want is not None:
            assert docs_blocks.matches(want, got), (
                f"{page}: the block at line {pair[0].line} printed\n{got}\nbut the page shows\n{want}")


def test_the_convention_catches_a_wrong_output(tmp_path):
    page = "```python\nprint(1 + 1)\n```\n\n<!-- prints -->\n```text\n3\n```\n"
    pairs = docs_blocks.checks(docs_blocks.blocks(page))
    outputs, proc = docs_blocks.run(pairs, str(tmp_path), str(ROOT))
    assert proc.returncode == 0 and outputs[0] == "2\n"
    assert not docs_blocks.matches(docs_blocks.expected(pairs[0]), outputs[0])
    assert docs_blocks.matches("1\n...\n4\n", "1\n2\n3\n4\n") and docs_blocks.matches("1\n...\n2\n", "1\n2\n")
    assert not docs_blocks.matches("1\n...\n", "0\n1\n")
    assert docs_blocks.matches(".../a.py:3: x\n", "/tmp/q/a.py:3: x\n")
    assert not docs_blocks.matches(".../a.py:3: x\n", "/tmp/q/a.py:4: x\n")


def test_markers(tmp_path):
    page = ("<!-- no-run: needs a cluster -->\n```python\nraise SystemExit(3)\n```\n"
            "<!-- file: mod.py -->\n```python\nVALUE = 41\n```\n"
            "```python\nimport mod\nprint(mod.VALUE + 1)\n```\n<!-- prints -->\n```\n42\n```\n"
            "```console\n$ python -c \"import mod; print(mod.VALUE)\"\n41\n```\n")
    pairs = docs_blocks.checks(docs_blocks.blocks(page))
    assert [(b.lang, b.marker) for b, _ in pairs] == [("python", "file"), ("python", ""), ("console", "")]
    outputs, proc = docs_blocks.run(pairs, str(tmp_path), str(ROOT))
    assert proc.returncode == 0, proc.stderr
    assert all(docs_blocks.matches(docs_blocks.expected(p), got) for p, got in zip(pairs, outputs)
               if docs_blocks.expected(p) is not None)
    with pytest.raises(ValueError, match="needs its reason"):
        docs_blocks.checks(docs_blocks.blocks("<!-- no-run -->\n```python\npass\n```\n"))
    with pytest.raises(ValueError, match="must follow"):
        docs_blocks.checks(docs_blocks.blocks("```bash\nls\n```\n<!-- prints -->\n```\nx\n```\n"))
