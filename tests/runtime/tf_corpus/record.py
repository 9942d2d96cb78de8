"""Record each corpus program's stdout under real TensorFlow into a sibling ``.out`` file.

Needs TensorFlow (not run in CI), e.g. a throwaway venv with ``tensorflow-cpu==2.21.*``:
    /work/venvs/tf/bin/python tests/runtime/tf_corpus/record.py [program.py ...]
TensorFlow and Keras are imported once, then each program runs in a forked child (a fresh state, as
in a new process: checked to give the same bytes as one interpreter per program); stderr is dropped.
"""

import importlib.util
import os
import pathlib
import runpy
import sys

HERE = pathlib.Path(__file__).resolve().parent


def record(path):
    """Run ``path`` in a forked child whose stdout is the ``.out`` file; the child's exit status."""
    pid = os.fork()
    if pid == 0:
        os.dup2(os.open(path.with_suffix(".out"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC), 1)
        os.dup2(os.open(os.devnull, os.O_WRONLY), 2)
        code = 0
        try:
            runpy.run_path(str(path), run_name="__main__")
        except BaseException:  # noqa: BLE001  (a program must not raise: reported below)
            code = 1
        sys.stdout.flush()
        os._exit(code)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


def main(names):
    if importlib.util.find_spec("tensorflow") is None:
        sys.exit("record.py needs TensorFlow: run it with a venv that has tensorflow-cpu installed.")
    os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
    import keras  # noqa: F401
    import tensorflow  # noqa: F401
    os.chdir(HERE)
    paths = [HERE / n for n in names] if names else sorted(
        p for p in HERE.glob("*.py") if p.name not in ("record.py", "run.py"))
    for path in paths:
        status = record(path)
        print(f"{path.name}: {'recorded' if status == 0 else f'FAILED (exit {status})'}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
