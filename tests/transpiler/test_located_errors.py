"""An error while a gradient runs is the primal's own exception at the user's line, or a
located message -- never an exception whose last frame is adjoin's code or generated code.

The last frame of each traceback must be this file, at the line of the statement that failed.
"""

import linecache
import traceback

import numpy as np
import pytest

from tests.fd import assert_close, numeric_grad
from transpiler import differentiate, grad, jvp, value_and_grad, vjp
from transpiler.higher import hessian, hvp


def _last_frame(exc):
    return traceback.extract_tb(exc.__traceback__)[-1]


def _line_of(fn, text):
    """The line number of the first line of ``fn`` containing ``text``."""
    first = fn.__code__.co_firstlineno
    lines = linecache.getlines(fn.__code__.co_filename)
    for i in range(first - 1, len(lines)):
        if text in lines[i]:
            return i + 1
    raise AssertionError(text)


def too_big(x):
    y = x * 2.0
    if y > 2.0:
        raise ValueError("x is too big")
    return y * x


def too_big_in_loop(x):
    y = x
    for i in range(4):
        y = y * 1.5
        if np.sum(y) > 10.0:
            raise ValueError(f"diverged at trip {i}")
    return np.sum(y * y)


def checked(x):
    assert x < 0, "x must be negative"
    return x * 2.0


def raised_after_a_try(x):
    try:
        y = np.sqrt(x)
    except ValueError:
        raise
    if x > 1.0:
        raise ValueError("x is too big")        # no handler watches this line
    return y * x


def shapes(x):
    m = np.ones((2, 3))
    return np.sum(m @ x)


ENTRIES = {
    "grad": lambda f, x: grad(f)(x),
    "grad again": lambda f, x: grad(f)(x),      # the second call runs the cached fast path
    "value_and_grad": lambda f, x: value_and_grad(f)(x),
    "vjp": lambda f, x: vjp(f, x)[1](),
    "jvp": lambda f, x: jvp(f, (x,), (np.ones_like(x),)),
    "hvp": lambda f, x: hvp(f, x, np.ones_like(x)),
    "hessian": lambda f, x: hessian(f)(x),
    "decorated": lambda f, x: differentiate(f).grad(x),
}

CASES = [(too_big, 3.0, ValueError, "raise ValueError"),
         (too_big_in_loop, np.array([2.0, 3.0]), ValueError, "raise ValueError"),
         (checked, 1.0, AssertionError, "assert x < 0"),
         (raised_after_a_try, 2.0, ValueError, 'raise ValueError("x is too big")'),
         (shapes, np.ones(4), ValueError, "m @ x")]


@pytest.mark.parametrize("entry", list(ENTRIES))
@pytest.mark.parametrize("fn,x,kind,text", CASES, ids=[c[0].__name__ for c in CASES])
def test_the_primal_exception_is_raised_at_the_users_line(entry, fn, x, kind, text):
    with pytest.raises(kind) as primal:
        fn(x)
    call = ENTRIES[entry]
    for _ in range(2 if entry == "grad again" else 1):
        with pytest.raises(kind) as e:
            call(fn, x)
    assert str(e.value) == str(primal.value).split("\n")[0]     # (pytest adds a line to the primal's assert)
    last = _last_frame(e.value)
    assert (last.filename, last.lineno) == (__file__, _line_of(fn, text)), traceback.format_exception(e.value)
    assert last.name == fn.__name__


def h(y):
    return y * 2.0


def constant_branch(x):
    return x if x > 0 else h(1.5)


def constant_call_in_branch(x):
    y = x * 2.0
    if x < 0:
        y = h(1.5)
    return y * x


@pytest.mark.parametrize("x", [1.0, -1.0])
def test_a_call_without_differentiable_arguments_is_a_constant(x):
    for f in (constant_branch, constant_call_in_branch):
        want = numeric_grad(f, x)
        assert_close(grad(f)(x), want, 1e-6, 1e-8, what=f"{f.__name__} reverse")
        assert_close(jvp(f, (x,), (1.0,))[1], want, 1e-6, 1e-8, what=f"{f.__name__} forward")
        assert_close(hvp(f, x, 1.0), numeric_grad(grad(f), x), 1e-5, 1e-7, what=f"{f.__name__} hvp")


def _long_sum(n):
    """``def f(x): return np.sin(x * 1.0) + 2.0 * x + ...`` with ``n`` terms: an AST ``n`` deep."""
    terms = [f"{(i % 7) + 1}.0 * x" if i % 2 else f"np.sin(x * {i % 5 + 1}.0)" for i in range(n)]
    source = "def f(x):\n    return " + " + ".join(terms) + "\n"
    filename = f"<long sum of {n} terms>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {"np": np}
    exec(compile(source, filename, "exec"), namespace)
    return namespace["f"]


@pytest.mark.parametrize("n", [500, 1200])
def test_an_expression_deeper_than_the_recursion_limit(n):
    f = _long_sum(n)
    want = numeric_grad(f, 0.3)
    assert_close(grad(f)(0.3), want, 1e-6, 1e-8, what="reverse")
    assert_close(jvp(f, (0.3,), (1.0,))[1], want, 1e-6, 1e-8, what="forward")
    if n == 500:
        assert_close(hvp(f, 0.3, 1.0), numeric_grad(grad(f), 0.3), 1e-5, 1e-7, what="hvp")


# Lambdas read from a file with lines above them: comments and errors name the lambda's own line.
summed_sine = lambda x: np.sum(np.sin(x) * x)            # noqa: E731
refused_set = lambda x: np.sum(np.array(sorted({x, 2.0})))   # noqa: E731


def test_a_lambdas_comment_is_its_own_text():
    assert "# grad of: np.sum(np.sin(x) * x)" in differentiate(summed_sine).source


def test_a_refusal_inside_a_lambda_names_its_line():
    from transpiler.core.errors import TranspileError
    with pytest.raises(TranspileError) as e:
        grad(refused_set)(1.0)
    assert f":{_line_of(refused_set, 'refused_set = lambda')}" in str(e.value)


def test_source_lines_that_do_not_parse_say_why():
    """A comment holding U+0085 (a line break to str.splitlines, not to the tokenizer) in lines
    kept by linecache: the def read back does not parse, and the message must not blame lambdas."""
    from transpiler.core.errors import TranspileError
    source = "def prog(x):\n    # \x85[\n    return x * x\n"
    filename = "<located-errors: a comment with NEL>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {}
    exec(compile(source, filename, "exec"), namespace)
    with pytest.raises(TranspileError) as e:
        grad(namespace["prog"])(2.0)
    assert "line separators" in str(e.value) and "lambda" not in str(e.value)
