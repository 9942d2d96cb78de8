"""`import runtime` loads nothing but the package (the transpiler's `import runtime.rules` runs it
first); the tf names, keras, linalg, random, data... load on first use (import time)."""

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


ENGINE_AND_SURFACE = ("runtime.engine", "runtime.ops", "runtime.framework", "runtime.keras", "runtime.namespace")


def test_import_runtime_loads_neither_the_engine_nor_the_surface_nor_the_rules():
    loaded = _run("import sys, runtime; print(*sorted(m for m in sys.modules if m.startswith('runtime')))")
    assert loaded == ["runtime", "runtime._version"], loaded


def test_import_runtime_rules_loads_neither_the_engine_nor_the_surface():
    loaded = _run("import sys, runtime.rules; print(*sorted(m for m in sys.modules if m.startswith('runtime')))")
    assert "runtime.rules" in loaded and not [m for m in loaded if m.startswith(ENGINE_AND_SURFACE)], loaded


def test_tf_names_load_on_first_use():
    out = _run("import sys, runtime as tf\n"
               "print('runtime.engine.tensor' in sys.modules)\n"
               "x = tf.constant(3.0)\n"
               "print('runtime.engine.tensor' in sys.modules, tf.float32 is x.dtype, repr(tf.float32))\n"
               "from runtime import GradientTape, Variable\n"
               "v = Variable(2.0)\n"
               "with GradientTape() as tape:\n"
               "    y = v * v\n"
               "print(float(tape.gradient(y, v)), 'constant' in dir(tf), 'keras' in dir(tf), 'runtime.keras' in sys.modules)")
    assert out == ["False", "True", "True", "tf.float32", "4.0", "True", "True", "False"]


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
