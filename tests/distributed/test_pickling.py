"""Gradients of functions defined in a script's ``__main__`` (or a notebook cell), pickled with
cloudpickle and unpickled in another process -- where the script's source is not available."""

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

SENDER = textwrap.dedent('''
    import json, linecache, sys
    import cloudpickle
    import numpy as np
    from transpiler import differentiate, grad, value_and_grad

    def scale(v, x):                 # a callee: its source must travel too
        return x * v

    def loss(w, x):
        total = 0.0
        for i in range(2):
            total = total + np.sum(np.sin(scale(w, x)) ** 2)
        return total

    @differentiate(wrt=0)
    def decorated(w, x):
        return np.sum(np.exp(scale(w, x)))

    # a notebook cell: IPython compiles it under a pseudo file name kept in linecache
    CELL = "def cell(w, x):\\n    return np.sum(np.cos(w * x) * x)\\n"
    name = "<ipython-input-7-0123456789ab>"
    linecache.cache[name] = (len(CELL), None, CELL.splitlines(True), name)
    exec(compile(CELL, name, "exec"), globals())

    def numeric(f, w, x, eps=1e-6):          # central differences, numpy only
        return [(f(w + eps * e, x) - f(w - eps * e, x)) / (2 * eps) for e in np.eye(len(w))]

    w, x = np.array([0.3, -0.7, 1.1]), np.array([1.5, 0.5, -2.0])
    objects = {"grad": grad(loss), "value_and_grad": value_and_grad(loss), "decorated": decorated,
               "grad_of_decorated": grad(decorated), "cell": grad(cell)}
    expected = {"grad": numeric(loss, w, x), "value_and_grad": numeric(loss, w, x),
                "decorated": numeric(decorated, w, x), "grad_of_decorated": numeric(decorated, w, x),
                "cell": numeric(cell, w, x), "value": float(loss(w, x))}
    with open(sys.argv[1], "wb") as fh:
        cloudpickle.dump((objects, expected, w, x), fh)
''')

RECEIVER = textwrap.dedent('''
    import json, pickle, sys
    import numpy as np
    with open(sys.argv[1], "rb") as fh:
        objects, expected, w, x = pickle.load(fh)
    value, g = objects["value_and_grad"](w, x)
    got = {"grad": objects["grad"](w, x).tolist(), "value_and_grad": g.tolist(), "value": float(value),
           "decorated": objects["decorated"].grad(w, x).tolist(),
           "grad_of_decorated": objects["grad_of_decorated"](w, x).tolist(),
           "cell": objects["cell"](w, x).tolist(), "primal": float(objects["decorated"](w, x))}
    print(json.dumps({"got": got, "expected": {k: np.asarray(v).tolist() for k, v in expected.items()}}))
''')


def test_main_and_notebook_functions_pickle_to_another_process(tmp_path):
    pytest.importorskip("cloudpickle")      # in the [test] extra; the sending script pickles with it
    script_dir = tmp_path / "sender"
    script_dir.mkdir()
    (script_dir / "train.py").write_text(SENDER)
    (tmp_path / "receive.py").write_text(RECEIVER)
    env = dict(os.environ, PYTHONPATH=ROOT)
    pickled = tmp_path / "gradients.pkl"
    sent = subprocess.run([sys.executable, str(script_dir / "train.py"), str(pickled)], env=env,
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert sent.returncode == 0, sent.stderr
    (script_dir / "train.py").unlink()          # the source is gone, as a notebook's would be
    script_dir.rmdir()
    received = subprocess.run([sys.executable, str(tmp_path / "receive.py"), str(pickled)], env=env,
                              capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert received.returncode == 0, received.stderr
    out = json.loads(received.stdout)
    got, expected = out["got"], out["expected"]
    for key in ("grad", "value_and_grad", "decorated", "grad_of_decorated", "cell"):
        np.testing.assert_allclose(got[key], expected[key], rtol=1e-6, atol=1e-8, err_msg=key)
    np.testing.assert_allclose(got["value"], expected["value"], rtol=1e-12)
    assert np.isfinite(got["primal"])


def test_a_transpile_error_pickles_with_its_location():
    """A TranspileError raised on a dask worker (or any subprocess) arrives whole."""
    import pickle

    from transpiler import TranspileError
    err = TranspileError("cannot do this", "model.py", 12, 4, "    y = f(x)\n", "do that instead")
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is TranspileError
    assert str(back) == str(err)
    assert (back.filename, back.lineno, back.offset, back.reason) == ("model.py", 12, 5, "cannot do this")
