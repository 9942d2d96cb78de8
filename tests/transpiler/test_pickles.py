"""Pickles: the source a pickle carries is checked against the code of the function it names,
a function found by name is never changed by unpickling, and plain ``pickle`` carries a
``@differentiate`` function of a script to a process pool.

Also the source adjoin reads from a file must be the code that runs (an edited file, ``exec``
under a misleading file name): refused at the user's line instead of differentiating the text.
"""

import importlib
import inspect
import os
import pickle
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

from transpiler import TranspileError, differentiate, grad

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

VICTIM = "import numpy as np\n\n\ndef f(x):\n    return np.sin(x) * x\n"


@pytest.fixture
def victim(tmp_path, monkeypatch):
    """A module on the path, imported: its ``f`` is found by name."""
    name = f"victim_{os.getpid()}_{time.monotonic_ns()}"
    (tmp_path / f"{name}.py").write_text(VICTIM)
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module(name)
    yield module
    sys.modules.pop(name, None)


class _Crafted:
    """Pickles as the call the pickle of a gradient makes (api._rebuild), with altered source."""

    def __init__(self, call, args):
        self.call, self.args = call, args

    def __reduce__(self):
        return self.call, self.args


def _want(x):
    return np.cos(x) * x + np.sin(x)


def test_a_crafted_pickle_cannot_change_the_gradient_of_an_importable_function(victim):
    from transpiler.api import _rebuild
    from transpiler.differentiable import _rebuild_differentiable
    fake = (victim.__file__, 4, "def f(x):\n    return x * 100.0\n")
    for payload in (_Crafted(_rebuild, (victim.f, 0, False, "grad", True, False, [(victim.f, fake)])),
                    _Crafted(_rebuild_differentiable, (victim.f, 0, "reverse", [(victim.f, fake)]))):
        pickle.loads(pickle.dumps(payload))
        assert not hasattr(victim.f, "_adjoin_source")
        assert np.isclose(grad(victim.f)(0.5), _want(0.5))
        assert np.isclose(differentiate(victim.f).grad(0.7), _want(0.7))


def test_carried_source_that_does_not_compile_to_the_code_is_refused():
    from transpiler.api import _rebuild
    namespace = {"np": np, "__name__": "not_importable_module"}
    text = "def g(x):\n    return np.sin(x) * x\n"
    exec(compile(text, "<sent by value>", "exec"), namespace)
    g = namespace["g"]
    # what unpickling a gradient sent by value (cloudpickle) calls
    honest = _rebuild(g, 0, False, "grad", True, False, [(g, ("<sent by value>", 1, text))])
    assert np.isclose(honest(0.5), _want(0.5))
    h = type(g)(g.__code__, namespace, "h")          # the same code, another function object
    with pytest.raises(ValueError, match="does not compile to the code"):
        _rebuild(h, 0, False, "grad", True, False, [(h, ("<sent by value>", 1, "def g(x):\n    return x * 100.0\n"))])
    assert not hasattr(h, "_adjoin_source")


SCRIPT = textwrap.dedent('''
    import sys
    from concurrent.futures import ProcessPoolExecutor
    import multiprocessing
    import numpy as np
    from transpiler import differentiate, grad

    @differentiate
    def f(x):
        return np.sin(x) * x ** 2

    def plain(x):
        return np.tanh(x) * 3.0

    if __name__ == "__main__":
        xs = [0.1, 0.5, 1.3]
        context = multiprocessing.get_context(sys.argv[1])
        with ProcessPoolExecutor(2, mp_context=context) as pool:
            got = list(pool.map(f.grad, xs))
            again = list(pool.map(grad(plain), xs))
            values = list(pool.map(f, xs))
        print(repr((got, again, values)))
''')


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_plain_pickle_carries_a_scripts_differentiate_function_to_a_process_pool(tmp_path, method):
    script = tmp_path / "pool_script.py"
    script.write_text(SCRIPT)
    done = subprocess.run([sys.executable, str(script), method], cwd=tmp_path, capture_output=True, text=True,
                          timeout=600, env={**os.environ, "PYTHONPATH": ROOT})
    assert done.returncode == 0, done.stderr
    got, again, values = eval(done.stdout.strip().splitlines()[-1], {"np": np})
    xs = np.array([0.1, 0.5, 1.3])
    np.testing.assert_allclose(got, np.cos(xs) * xs ** 2 + 2 * xs * np.sin(xs), rtol=1e-12)
    np.testing.assert_allclose(again, 3.0 * (1 - np.tanh(xs) ** 2), rtol=1e-12)
    np.testing.assert_allclose(values, np.sin(xs) * xs ** 2, rtol=1e-12)


def test_an_edited_file_is_refused_where_the_function_is(victim):
    path = victim.__file__
    with open(path, "w") as fh:
        fh.write(VICTIM.replace("np.sin(x) * x", "np.cos(x) * x ** 3"))
    later = time.time() + 10
    os.utime(path, (later, later))
    with pytest.raises(TranspileError) as e:
        grad(victim.f)(0.5)
    assert "is not the code that runs" in str(e.value) and e.value.filename == path and e.value.lineno == 4
    assert "importlib.reload" in str(e.value)
    importlib.reload(victim)
    assert np.isclose(grad(victim.f)(0.5), -np.sin(0.5) * 0.125 + 3 * np.cos(0.5) * 0.25)


def test_exec_under_a_misleading_file_name_is_refused(victim):
    namespace = {"np": np}
    exec(compile("import numpy as np\n\n\ndef f(x):\n    return np.tanh(x) * 3.0\n", victim.__file__, "exec"),
         namespace)
    with pytest.raises(TranspileError, match="is not the code that runs"):
        grad(namespace["f"])(0.5)


def _closure(a):
    def inner(x):
        return np.sin(x) * a
    return inner


class Model:
    def __init__(self):
        self.scale = 2.0

    def loss(self, x):
        return np.sum(np.tanh(x) * self.scale)


class Child(Model):
    def loss(self, x):
        return super().loss(x) * 3.0


def _decorated(f):
    import functools

    @functools.wraps(f)
    def wrapper(*args):
        return f(*args)
    return wrapper


@_decorated
def decorated(x):
    """A docstring."""
    return x ** 3


def test_the_check_accepts_the_code_that_runs():
    """Closures, methods with super(), lambdas, decorated and nested functions,
    generated code read again: all are their source (the whole suite runs through the check too)."""
    from transpiler.higher import hvp
    lam = lambda x: np.cos(x) * 2.0        # noqa: E731
    assert np.isclose(grad(_closure(1.5))(0.3), 1.5 * np.cos(0.3))
    assert np.isclose(grad(Model().loss)(np.array([0.2]))[0], 2.0 * (1 - np.tanh(0.2) ** 2))
    assert np.isclose(grad(lam)(0.3), -2.0 * np.sin(0.3))
    assert np.isclose(grad(decorated)(0.5), 0.75)
    assert np.isclose(hvp(decorated, 0.5, 1.0), 3.0)
    assert np.isclose(grad(grad(_closure(2.0)))(0.3), -2.0 * np.sin(0.3))


def test_same_code_on_texts():
    from transpiler.core.same_code import same_code

    def g(x):
        return np.sin(x) * x

    text = "    def g(x):\n        return np.sin(x) * x\n"
    assert same_code(g, text, __file__)
    assert not same_code(g, text.replace("np.sin(x) * x", "np.sin(x) * x * 2"), __file__)
    assert not same_code(g, text.replace("np.sin", "np.cos"), __file__)
    assert not same_code(g, text.replace("(x) * x", "(x) * y"), __file__)
    assert same_code(Child.loss, inspect.getsource(Child.loss), __file__)        # super(): a __class__ cell
    assert not same_code(Child.loss, inspect.getsource(Child.loss).replace("3.0", "4.0"), __file__)
