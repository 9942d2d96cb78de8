"""scipy is an optional extra: with it hidden, runtime, the transpiler and the rules table import,
and gradients run in both halves; runtime.scipy says what to install."""

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]

HIDE_SCIPY = """
import importlib.abc, sys
class HideScipy(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "scipy" or name.startswith("scipy."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, HideScipy())
"""

PROGRAM = HIDE_SCIPY + """
import numpy as np
import runtime as tf
import transpiler
from runtime import rules
rules.load_all()                      # every family that does not need scipy
from transpiler_check import f
print(transpiler.grad(f)(np.array([0.5, 2.0])).tolist())
x = tf.constant(np.array([0.5, 2.0]))
with tf.GradientTape() as tape:
    tape.watch(x)
    y = f(x)
print(tape.gradient(y, x).numpy().tolist())
try:
    from runtime import scipy
except ImportError as e:
    print("ImportError:", e)
print("scipy" in sys.modules)
"""


def test_everything_but_runtime_scipy_works_without_scipy(tmp_path):
    (tmp_path / "transpiler_check.py").write_text("import numpy as np\n\ndef f(x):\n    return np.sum(np.sin(x) * x)\n")
    proc = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True, cwd=tmp_path,
                          timeout=300, env={"PYTHONPATH": f"{ROOT}:{tmp_path}", "PATH": ""})
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    x = [0.5, 2.0]
    import math
    want = [math.cos(v) * v + math.sin(v) for v in x]
    for line in lines[:2]:
        assert [round(v, 12) for v in eval(line)] == [round(v, 12) for v in want]
    assert lines[2].startswith("ImportError: runtime.scipy needs scipy") and "adjoin[scipy]" in lines[2]
    assert lines[3] == "False"


def test_runtime_and_the_transpiler_do_not_import_scipy_until_asked(tmp_path):
    (tmp_path / "transpiler_check.py").write_text("import numpy as np\n\ndef f(x):\n    return np.sum(np.sin(x) * x)\n")
    code = ("import sys, numpy as np, runtime as tf, transpiler\nfrom transpiler_check import f\n"
            "transpiler.grad(f)(np.array([0.5]))\nx = tf.constant([0.5])\n"
            "with tf.GradientTape() as t:\n    t.watch(x)\n    y = f(x)\nt.gradient(y, x)\n"
            "print('scipy' in sys.modules)\nimport runtime.scipy\nprint('scipy.stats' in sys.modules)\n"
            "tf.scipy.stats.norm\nprint('scipy.stats' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                          timeout=300, env={"PYTHONPATH": f"{ROOT}:{tmp_path}", "PATH": ""})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["False", "False", "True"]
