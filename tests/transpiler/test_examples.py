"""examples/everyday_python.py runs and every gradient it prints agrees with finite differences."""

import importlib.util
import os

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_everyday_python_example(capsys):
    spec = importlib.util.spec_from_file_location("everyday_python", os.path.join(ROOT, "examples",
                                                                                   "everyday_python.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    results = module.main()
    assert set(results) == {"horner", "dict", "writes", "hvp"}
    for name, (got, want) in results.items():
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=name)
    assert "dict gradient" in capsys.readouterr().out
