"""`import runtime` loads keras, linalg, random, data... only when first used (import time)."""

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
LAZY = ["keras", "linalg", "random", "autodiff", "debugging", "data"]


def _run(code):
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          timeout=120, env={"PYTHONPATH": str(ROOT), "PATH": ""})
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.split()


def test_import_runtime_loads_none_of_the_lazy_modules():
    loaded = _run("import sys, runtime; print(*sorted(m for m in sys.modules "
                  "if m.startswith('runtime.') or m == 'numpy.random'))")
    assert not [m for m in loaded if m in [f"runtime.{n}" for n in LAZY] + ["numpy.random"]], loaded


def test_attribute_access_and_from_imports_load_them():
    out = _run("import runtime as tf; from runtime import keras, data; import runtime.random; "
               "print(tf.keras is keras, tf.data is data, tf.random is runtime.random, "
               "callable(tf.linalg.inv), 'debugging' in dir(tf), "
               "tf.autodiff.ForwardAccumulator.__name__)")
    assert out == ["True", "True", "True", "True", "True", "ForwardAccumulator"]


def test_unknown_attribute_is_an_attribute_error():
    out = _run("import runtime as tf\ntry:\n    tf.no_such_name\nexcept AttributeError as e:\n"
               "    print('AttributeError')")
    assert out == ["AttributeError"]
