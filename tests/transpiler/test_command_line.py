"""``python -m transpiler``: a mistake in the command is one line and exit status 2, no
traceback; ``-o`` writes a new file (``--force`` to replace one), never an input file, never
through a symbolic link; module constants that are inf or nan are written so the module imports.
"""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

MODEL = '''
import numpy as np

LIMIT = float("inf")
FLOOR = -np.inf
BOUNDS = np.array([-np.inf, 0.5, np.nan, np.inf])
SCALE = np.float64(2.5)
COUNT = 3

def loss(w, b):
    y = np.minimum(w * SCALE, LIMIT) + np.maximum(b, FLOOR)
    return np.sum(np.clip(y, BOUNDS[0], BOUNDS[3]) ** 2)

def tail(w):
    return w * COUNT

NOT_A_FUNCTION = 42
'''


class Result:
    def __init__(self, returncode, stdout, stderr):
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


@pytest.fixture
def run(monkeypatch, capsys):
    """``run(folder, *args)``: the command's main() in this process, in ``folder``."""
    from transpiler.__main__ import main

    def call(folder, *args):
        monkeypatch.chdir(folder)
        monkeypatch.setattr(sys, "path", list(sys.path))
        capsys.readouterr()
        try:
            code = main(list(args))
        except SystemExit as e:        # argparse's own exits (--help, a bad option)
            code = e.code
        out = capsys.readouterr()
        return Result(code, out.out, out.err)
    return call


def run_process(folder, *args):
    return subprocess.run([sys.executable, "-m", "transpiler", *args], cwd=folder, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")},
                          timeout=300)


@pytest.fixture
def model(tmp_path):
    path = tmp_path / "model.py"
    path.write_text(textwrap.dedent(MODEL))
    return path


def _one_line_error(result, *words):
    assert result.returncode == 2, (result.returncode, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])


@pytest.mark.parametrize("target,args,words", [
    ("nowhere.py:loss", [], ["no such file"]),
    ("model.py:nope", [], ["defines no `nope`", "loss"]),
    ("model.py:NOT_A_FUNCTION", [], ["takes the function to differentiate", "int"]),
    ("model.py:loss", ["--wrt", ""], ["--wrt"]),
    ("model.py:loss", ["--wrt", "0,,1"], ["--wrt"]),
    ("model.py:loss", ["--wrt", "5"], ["--wrt 5", "2 positional parameter(s) (w, b)"]),
    ("model.py:loss", ["--wrt", "-3"], ["--wrt -3"]),
    ("model.py:loss", ["--wrt", "q"], ["no parameter named 'q'", "w, b"]),
    ("model.py:loss", ["-o", "missing/grads.py"], ["does not exist"]),
    ("model.py", [], ["FILE.py:FUNCTION"]),
])
def test_a_mistake_in_the_command_is_one_line_and_status_2(run, tmp_path, model, target, args, words):
    _one_line_error(run(tmp_path, target, *args), *words)


def test_a_module_that_raises_on_import_is_one_line(run, tmp_path):
    (tmp_path / "broken.py").write_text("import numpy as np\n\nx = 1 / 0\n\ndef f(x):\n    return x\n")
    _one_line_error(run(tmp_path, "broken.py:f"), "ZeroDivisionError", "broken.py:3")


def test_output_never_overwrites_unless_forced(run, tmp_path, model):
    out = tmp_path / "grads.py"
    out.write_text("# keep me\n")
    _one_line_error(run(tmp_path, "model.py:loss", "-o", "grads.py"), "exists", "--force")
    assert out.read_text() == "# keep me\n"
    done = run(tmp_path, "model.py:loss", "-o", "grads.py", "--force")
    assert done.returncode == 0, done.stderr
    assert "def dlossdw" in out.read_text()


def test_output_is_never_an_input_file(run, tmp_path, model):
    before = model.read_text()
    for extra in ([], ["--force"]):
        _one_line_error(run(tmp_path, "model.py:loss", "-o", "model.py", *extra), "is an input file")
    assert model.read_text() == before


def test_output_is_never_written_through_a_symbolic_link(run, tmp_path, model):
    victim = tmp_path / "victim.txt"
    victim.write_text("untouched\n")
    link = tmp_path / "grads.py"
    link.symlink_to(victim)
    for extra in ([], ["--force"]):
        _one_line_error(run(tmp_path, "model.py:loss", "-o", "grads.py", *extra), "symbolic link")
    assert victim.read_text() == "untouched\n" and link.is_symlink()
    dangling = tmp_path / "dangling.py"
    dangling.symlink_to(tmp_path / "nowhere" / "x.py")
    _one_line_error(run(tmp_path, "model.py:loss", "-o", "dangling.py"), "symbolic link")
    assert not (tmp_path / "nowhere").exists()


def test_constants_that_are_inf_or_nan_are_written_so_the_module_imports(tmp_path, model):
    done = run_process(tmp_path, "model.py:loss", "--wrt", "w,b", "-o", "grads.py")
    assert done.returncode == 0, done.stderr
    check = ("import numpy as np, grads, model\n"
             "w, b = np.array([0.3, -1.2]), np.array([0.5, 2.0])\n"
             "gw, gb = grads.dlossdw_b(w, b)\n"
             "e = 1e-6\n"
             "fd = [(model.loss(w + e * d, b) - model.loss(w - e * d, b)) / (2 * e) for d in np.eye(2)]\n"
             "assert np.allclose(gw, fd, rtol=1e-6, atol=1e-8), (gw, fd)\n"
             "assert np.isinf(grads.LIMIT) and np.isnan(grads.BOUNDS[2]) and grads.BOUNDS.dtype == np.float64\n"
             "assert type(grads.SCALE) is np.float64\n"
             "print('ok')\n")
    # grads.py must not import model (it is standalone): run it without model's folder first
    alone = subprocess.run([sys.executable, "-c", "import grads; print(grads.LIMIT, grads.BOUNDS)"], cwd=tmp_path,
                           capture_output=True, text=True, timeout=120)
    assert alone.returncode == 0 and "inf" in alone.stdout, alone.stderr
    checked = subprocess.run([sys.executable, "-c", check], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert checked.returncode == 0 and "ok" in checked.stdout, checked.stderr


def test_help_says_the_input_module_is_imported(run, tmp_path):
    shown = run(tmp_path, "--help")
    assert shown.returncode == 0
    text = " ".join(shown.stdout.split())
    assert "imported" in text and "top-level code runs" in text and "--force" in text


def test_the_literals_of_a_standalone_module_round_trip():
    from transpiler.backend.codegen import _literal
    for value in (float("inf"), -float("inf"), 1.5, -0.0, complex(float("inf"), -2.0), (1, (2.5, "a"), None),
                  [[1.0, float("nan")], [True, 3]], np.float64(2.5), 7):
        back = eval(_literal(value))
        assert repr(back) == repr(value.item() if isinstance(value, np.generic) else value)
