"""Run corpus programs with ``tensorflow`` mapped to adjoin's ``runtime``; print a JSON map of results.

    python tests/runtime/tf_corpus/run.py OUT.json program.py ...

``runtime`` (and ``runtime.keras``) is imported once; each program then runs in a forked child, so
programs start from a fresh state as under TF (layer-name counters, variables, seeds) without paying
for the import each time.  Without ``os.fork`` (Windows) each program gets its own interpreter.
"""

import io
import json
import os
import pathlib
import runpy
import subprocess
import sys
import tempfile
import warnings

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[2]


def install_shim():
    """Make ``import tensorflow`` (and ``from tensorflow import keras``) give the runtime."""
    sys.path.insert(0, str(ROOT))
    import runtime
    import runtime.keras
    sys.modules["tensorflow"] = runtime
    sys.modules["tensorflow.keras"] = runtime.keras


def run_here(path):
    """Run one program in this process; its stdout, stderr and exit status."""
    out, err = io.StringIO(), io.StringIO()
    sys.stdout, sys.stderr = out, err
    status = 0
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("default")
            runpy.run_path(str(path), run_name="__main__")
    except SystemExit as e:
        status = e.code if isinstance(e.code, int) else 1
    except BaseException:  # noqa: BLE001  (report whatever the program raised)
        import traceback
        traceback.print_exc()
        status = 1
    finally:
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
    return {"stdout": out.getvalue(), "stderr": err.getvalue(), "status": status}


def run_forked(path):
    with tempfile.TemporaryFile() as buf:
        pid = os.fork()
        if pid == 0:  # child
            code = 0
            try:
                buf.write(json.dumps(run_here(path)).encode())
                buf.flush()
            except BaseException:  # noqa: BLE001
                code = 3
            os._exit(code)
        os.waitpid(pid, 0)
        buf.seek(0)
        data = buf.read()
    return json.loads(data) if data else {"stdout": "", "stderr": "child crashed", "status": 3}


def run_subprocess(path):
    proc = subprocess.run([sys.executable, __file__, "--one", str(path)], capture_output=True)
    return {"stdout": proc.stdout.decode("utf-8"), "stderr": proc.stderr.decode("utf-8"),
            "status": proc.returncode}


def main(argv):
    if argv[0] == "--one":  # one program, its output on this process's own streams
        install_shim()
        result = run_here(pathlib.Path(argv[1]))
        sys.stdout.write(result["stdout"])
        sys.stderr.write(result["stderr"])
        sys.exit(result["status"])
    out_path, paths = argv[0], [pathlib.Path(p) for p in argv[1:]]
    run = run_subprocess
    if hasattr(os, "fork"):
        install_shim()
        run = run_forked
    results = {p.name: run(p) for p in paths}
    pathlib.Path(out_path).write_text(json.dumps(results))


if __name__ == "__main__":
    main(sys.argv[1:])
