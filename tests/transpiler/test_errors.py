"""Unsupported constructs and bad arguments give TranspileError/TypeError pointing at the source."""

import math
import traceback

import numpy as np
import pytest

from transpiler import TranspileError, differentiate, grad


def helper(x):
    return x * 2


def gen_helper(x):
    yield x * 2


def calls_user(x):
    return gen_helper(x) * 3


def no_rule(x):
    return np.linalg.cond(x) * 2


def alias_mutation(x):
    y = x
    y += 1.0
    return y * x


def no_return(x):
    y = x * 2


def lambda_inside(x):
    return np.sum(np.apply_along_axis(lambda t: t * 2, 0, x))


def method_no_rule(x):
    return x.byteswap()


def one_arg(x):
    return x * 2.0


@pytest.mark.parametrize("fn,words", [
    (calls_user, "the generator made by gen_helper(...) is used here"),
    (no_rule, "np.linalg.cond"),
    (no_return, "no return statement"),
    (lambda_inside, "this lambda cannot be differentiated here"),
    (method_no_rule, ".byteswap()"),
])
def test_unsupported(fn, words):
    with pytest.raises(TranspileError) as info:
        differentiate(fn)
    err = info.value
    text = str(err)
    assert words in text, text
    assert err.filename.endswith("test_errors.py")
    assert err.lineno >= fn.__code__.co_firstlineno           # points into the function
    assert "^" in text and err.text                              # the source line with a caret
    assert err.hint                                              # a sentence on what to do
    # Python's own printer shows the user's line, not transpiler internals
    shown = "".join(traceback.format_exception_only(type(err), err))
    assert "transpiler/normalize" not in shown and "transpiler/api" not in shown and err.text.strip() in shown


def test_no_rule_message_says_how_to_add_one():
    with pytest.raises(TranspileError) as info:
        differentiate(no_rule)
    assert "runtime.rules.define" in str(info.value)


def test_int_argument_is_a_clear_error():
    f = differentiate(one_arg)
    with pytest.raises(TypeError, match="integer 3"):
        f.grad(3)
    with pytest.raises(TypeError, match="dtype int"):
        f.grad(np.arange(3))
    with pytest.raises(TypeError, match="str"):
        f.grad("a")
    assert f.grad(3.0) == 2.0


def test_bad_wrt():
    with pytest.raises(ValueError, match="no parameter named 'z'"):
        differentiate(one_arg, wrt="z")
    with pytest.raises(ValueError, match="1 positional"):
        grad(one_arg, wrt=3)


def test_inactive_call_to_user_function_is_fine():
    def f(x):
        k = helper(2.0)          # does not depend on x: a constant
        print_me = str(k)        # noqa: F841
        return x * k

    assert differentiate(f).grad(1.5) == 4.0


def test_integer_math_is_not_differentiated():
    def f(x):
        n = math.floor(x)
        return x * n

    assert differentiate(f).grad(2.5) == 2.0


# --- sets of differentiable values: what is wrong and what to write instead ----------------

def set_display(x):
    s = {x, x * 2.0}
    return sum(s)


def set_call(x):
    s = set([x, x * 2.0])
    return sum(s)


def frozenset_call(x):
    s = frozenset([x, x * 2.0])
    return sum(s)


def set_comprehension(x):
    s = {v * 2.0 for v in [x, x * x]}
    return sum(s)


def set_add(x):
    s = set()
    s.add(x)
    return sum(s)


@pytest.mark.parametrize("fn,words,line", [
    (set_display, "a set cannot hold differentiable values", "s = {x, x * 2.0}"),
    (set_call, "a set cannot hold differentiable values", "s = set([x, x * 2.0])"),
    (frozenset_call, "a set cannot hold differentiable values", "s = frozenset([x, x * 2.0])"),
    (set_comprehension, "set comprehensions are not supported", "s = {v * 2.0 for v in [x, x * x]}"),
    (set_add, "changes the set `s` in place", "s.add(x)"),
], ids=lambda v: getattr(v, "__name__", "")[:0] or None)
@pytest.mark.parametrize("mode", ["reverse", "forward"])
def test_sets_of_differentiable_values_say_why_and_what_instead(fn, words, line, mode):
    with pytest.raises(TranspileError) as info:
        differentiate(fn, mode=mode)
    err = info.value
    assert words in str(err) and err.filename == __file__ and err.text.strip() == line
    assert err.lineno == fn.__code__.co_firstlineno + (2 if fn is set_add else 1)
    assert "list" in err.hint                   # what to write instead
    assert "derivative rule" not in str(err)    # not an invitation to define a rule for set()


def set_of_plain_numbers(x):
    s = {1.0, 2.0, 2.0}
    total = 0.0
    for v in s:
        total = total + v * x
    return total


def test_a_set_of_plain_numbers_still_works():
    assert differentiate(set_of_plain_numbers).grad(0.5) == 3.0


def test_alias_then_augmented_array_is_refused_when_it_runs():
    """`y = x; y += 1.0` changes the caller's array in Python: refused at the user's line when the gradient
    runs on an array; on a float `+=` makes a new value, and the gradient is exact."""
    with pytest.raises(TranspileError, match="in place") as info:
        grad(alias_mutation)(np.array([0.5, 2.0]))
    err = info.value
    assert err.filename.endswith("test_errors.py") and err.lineno == alias_mutation.__code__.co_firstlineno + 2
    assert "^" in str(err) and err.hint
    assert abs(grad(alias_mutation)(0.5) - (2 * 0.5 + 1.0)) < 1e-12
