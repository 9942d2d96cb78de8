"""CI fails when a test is skipped (tests/conftest.py, with ADJOIN_NO_SKIPS set, as .ci/run sets it)."""

import os
import pathlib
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _run(folder, **env):
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(folder)],
                          capture_output=True, text=True, cwd=folder, timeout=120,
                          env={k: v for k, v in {**os.environ, **env}.items() if v is not None})


def test_a_skipped_test_fails_the_run_only_when_asked(tmp_path):
    shutil.copy(ROOT / "tests" / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "test_one.py").write_text("import pytest\n\ndef test_skipped():\n    pytest.skip('needs foo')\n\n"
                                          "def test_passes():\n    assert True\n")
    assert _run(tmp_path, ADJOIN_NO_SKIPS=None).returncode == 0
    strict = _run(tmp_path, ADJOIN_NO_SKIPS="1")
    assert strict.returncode == 1 and "test_skipped" in strict.stdout and "needs foo" in strict.stdout
    (tmp_path / "test_one.py").write_text("def test_passes():\n    assert True\n")
    assert _run(tmp_path, ADJOIN_NO_SKIPS="1").returncode == 0
