"""What the package says about itself: one version everywhere, a license, a changelog entry for it."""

import pathlib
import re

import runtime
import transpiler

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_one_version_shared_by_both_packages():
    assert re.fullmatch(r"\d+\.\d+\.\d+([ab]|rc)?\d*", runtime.__version__)
    assert transpiler.__version__ == runtime.__version__


def test_pyproject_reads_the_version_from_the_module():
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'dynamic = ["version"]' in pyproject
    assert 'version = {attr = "runtime._version.__version__"}' in pyproject
    assert not re.search(r'^version\s*=\s*"', pyproject, re.M), "a second, literal version in pyproject.toml"


def test_changelog_has_an_entry_for_this_version():
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(rf"^## {re.escape(runtime.__version__)}\b", changelog, re.M)


def test_license_is_apache_2():
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    assert "END OF TERMS AND CONDITIONS" in text
    assert 'license = {text = "Apache-2.0"}' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
