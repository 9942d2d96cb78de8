"""The seed programs, with `import runtime as tf`, print byte for byte what TensorFlow 2.21 prints."""

import pathlib
import subprocess
import sys

import pytest

SEEDS = pathlib.Path(__file__).parent / "seeds"


@pytest.mark.parametrize("name", ["s1", "s2", "s3", "s4"])
def test_seed_prints_what_tensorflow_prints(name):
    expected = (SEEDS / f"{name}.expected").read_bytes()
    proc = subprocess.run(
        [sys.executable, str(SEEDS / f"{name}.py")], capture_output=True, timeout=60,
        env={"PYTHONIOENCODING": "utf-8", "PATH": "", **_pythonpath()},
    )
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout == expected


def _pythonpath():
    root = str(pathlib.Path(__file__).resolve().parents[2])
    return {"PYTHONPATH": root}
