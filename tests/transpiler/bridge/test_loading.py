"""The bridge to the tape (transpiler/bridge/) is loaded on first use, never by ``import transpiler``.

Each check runs in a fresh interpreter, since this test process has long since loaded everything.
"""

import json
import os
import subprocess
import sys
import textwrap

import numpy as np

from transpiler import bridge
from transpiler.bridge import tensor_arguments

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
HEAVY = ("transpiler.bridge.tape_call", "transpiler.bridge.tensor_arguments", "transpiler.bridge.tf_calls",
         "transpiler.bridge.tf_twins")


def run(program, tmp_path, lazy_runtime=False):
    """What ``program`` prints as JSON, run in a fresh interpreter from a module in ``tmp_path``
    (``@differentiate`` reads source, so the functions must live in a file).  ``lazy_runtime``
    stands in an empty ``runtime`` package first, as a ``runtime/__init__`` that loads nothing."""
    head = ""
    if lazy_runtime:
        head = ("import sys, types\nrt = types.ModuleType('runtime')\n"
                f"rt.__path__ = [{os.path.join(ROOT, 'runtime')!r}]\nsys.modules['runtime'] = rt\n")
    path = tmp_path / "program.py"
    path.write_text(head + textwrap.dedent(program))
    out = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, cwd=tmp_path,
                         env={**os.environ, "PYTHONPATH": ROOT}, timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_import_transpiler_loads_of_runtime_only_its_rules(tmp_path):
    loaded = run("""
        import json, sys
        import transpiler
        print(json.dumps(sorted(sys.modules)))
    """, tmp_path, lazy_runtime=True)
    of_runtime = [m for m in loaded if m == "runtime" or m.startswith("runtime.")]
    assert "runtime.rules" in of_runtime
    assert [m for m in of_runtime if m not in ("runtime", "runtime._version") and not m.startswith("runtime.rules")] == []
    assert [m for m in loaded if m.startswith(HEAVY)] == []


def test_import_transpiler_leaves_the_tape_keras_and_the_tf_surface_out(tmp_path):
    loaded = run("""
        import json, sys
        import transpiler
        print(json.dumps(sorted(sys.modules)))
    """, tmp_path)
    assert [m for m in loaded if m.startswith(("runtime.engine", "runtime.keras", "runtime.ops", "runtime.framework"))
            or m.endswith(".tape")] == []
    assert [m for m in loaded if m.startswith("runtime") and m not in ("runtime", "runtime._version")
            and not m.startswith("runtime.rules")] == []
    assert [m for m in loaded if m.startswith(HEAVY)] == []


def test_the_tape_bridge_loads_when_a_tensor_reaches_a_differentiated_function(tmp_path):
    seen = run("""
        import json, sys
        import numpy as np
        import transpiler

        @transpiler.differentiate
        def f(x):
            return np.sum(np.sin(x))

        loaded = lambda: [m for m in sys.modules if m.startswith("transpiler.bridge.")]
        out = {"numpy": [float(f(np.ones(2))), float(f.grad(np.ones(2))[0]), loaded()]}
        import runtime as tf
        x = tf.constant([1.0, 2.0], dtype=tf.float64)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        out["tensor"] = [type(y).__name__, tape.gradient(y, x).numpy().tolist(), loaded()]
        print(json.dumps(out))
    """, tmp_path)
    value, slope, loaded = seen["numpy"]
    assert np.isclose(value, 2 * np.sin(1.0)) and np.isclose(slope, np.cos(1.0))
    assert "transpiler.bridge.tape_call" not in loaded     # (tensor_arguments: once runtime's tensors exist)
    kind, gradient, loaded = seen["tensor"]
    assert kind != "ndarray" and np.allclose(gradient, np.cos([1.0, 2.0]))
    assert "transpiler.bridge.tape_call" in loaded and "transpiler.bridge.tf_calls" not in loaded


def test_tf_calls_load_when_a_differentiated_function_calls_runtime(tmp_path):
    seen = run("""
        import json, sys
        import numpy as np
        import runtime as tf
        import transpiler

        def plain(x):
            return np.sum(x * x)

        def with_tf(x):
            return tf.reduce_sum(x * x)

        loaded = lambda: "transpiler.bridge.tf_calls" in sys.modules
        out = [transpiler.grad(plain)(np.arange(3.0)).tolist(), loaded()]
        out += [transpiler.grad(with_tf)(np.arange(3.0)).tolist(), loaded()]
        print(json.dumps(out))
    """, tmp_path)
    assert seen == [[0.0, 2.0, 4.0], False, [0.0, 2.0, 4.0], True]


def test_the_tensor_module_the_bridge_waits_for_defines_the_tensors():
    # has_tensor answers no until this module is imported: it must be where tensors come from
    assert tensor_arguments._TensorBase.__module__ == bridge.TENSOR_MODULE
