"""Printing and compiling generated code: what the transformation-time shortcuts must keep.

``to_source`` prints comment statements through placeholder names (codegen.py): each
``# grad of:`` line must still be the user's statement character for character, and the
tree must come back holding its comment strings.  ``transform`` pauses the garbage
collector while it runs and must leave it as it found it, also when it raises.
"""

import ast
import gc
import inspect

import numpy as np
import pytest

from tests.fd import assert_close, numeric_grad
from transpiler import TranspileError
from transpiler.backend.codegen import to_source
from transpiler.core.ir import COMMENT
from transpiler.generate import transform


def tricky_text(x):
    y = x * len("a'b\"c\t é \\ x")
    z = np.sin(y) + len('#"\'')
    return z * z


def _user_lines(fn):
    """The statements of ``fn`` as written, without the def line."""
    return [line.strip() for line in inspect.getsource(fn).splitlines()[1:]]


def test_comment_lines_are_the_users_statements_verbatim():
    gen = transform(tricky_text, 0)
    comments = [line.strip()[len("# grad of: "):] for line in gen.code.splitlines()
                if line.strip().startswith("# grad of: ")]
    statements = _user_lines(tricky_text)
    assert comments and all(c in statements for c in comments), (comments, statements)
    assert statements[0] in comments and statements[1] in comments


def test_printing_leaves_the_comment_strings_in_the_tree():
    gen = transform(tricky_text, 0)
    before = ast.dump(gen.node)
    again = to_source(gen.node)
    assert again == gen.code
    assert ast.dump(gen.node) == before
    texts = [s.value.value for s in ast.walk(gen.node) if isinstance(s, ast.Expr)
             and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str)]
    assert texts and all(t.startswith(COMMENT) for t in texts)


def test_the_printed_gradient_is_right():
    x = 0.3
    assert_close(transform(tricky_text, 0)(x), numeric_grad(tricky_text, x))


def refused(x):
    return x.undefined_method_of_adjoin()


@pytest.mark.parametrize("enabled", [True, False])
def test_transform_leaves_the_garbage_collector_as_it_found_it(enabled):
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        transform(tricky_text, 0)
        assert gc.isenabled() is enabled
        with pytest.raises(TranspileError):
            transform(refused, 0)
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


def _non_ascii_line(x):
    y = x * len("é ü ß")  # a trailing comment
    return np.sin(y)


def test_comment_of_a_line_with_non_ascii_text_is_the_statement():
    """The AST's columns count UTF-8 bytes: sliced as characters, the comment ran into the user's `#`."""
    source = transform(_non_ascii_line).source
    assert '    # grad of: y = x * len("é ü ß")\n' in source
