"""The front end's shortcuts give what the slow ways give, and its work grows linearly with the
function (counted in Python calls, not timed: benchmarks/straight_line.py times it).

source/lines.py finds a function's lines without the tokenizer, traversal.py walks and
rewrites trees without ``ast.walk``/``ast.NodeTransformer``: each is compared here with the
standard library on awkward functions and on every function of the transpiler and runtime.
"""

import ast
import copy
import importlib
import importlib.util
import inspect
import pkgutil
import sys
import textwrap
import types

import pytest

from transpiler.core.context import Context
from transpiler.frontend.normalize import normalize
from transpiler.frontend.source.parsing import parse_function
from transpiler.frontend.source.lines import source_lines
from transpiler.frontend.traversal import Transformer, calls, nodes, statements


# --- awkward layouts (their text is the test: keep it as it is) ------------------------------
def trailing_comments(x):
    y = x * 2.0
    return y
    # kept by inspect: as deep as the body
        # deeper: kept too
# at the margin: not kept


def one_liner(x): return x * 2.0
    # after a one-line def: not kept


def decorated(fn):
    return fn


@decorated
def with_decorator(x):
    return x + 1.0


def decorating(*args):
    return decorated


@decorating(
    "over two lines")
def with_long_decorator(x):
    return x + 1.0


def long_signature(x,
                   y=2.0):
    return x * y


def string_at_margin(x):
    s = """
text at the margin"""
    return x * len(s)


def brackets_at_margin(x):
    y = (x +
1.0)
    return y


async def asynchronous(x):
    return x


class Holder:
    def method(self, x):
        return x * 3.0
    # between methods

    @staticmethod
    def static(x):
        return x - 1.0

    def last(self, x):
        def inner(v):
            return v * x
        return inner(x)


def tabbed(x):
	return x * 2.0  # noqa: W191,E101  (a tab: the tokenizer counts it, not source_lines)


closure = trailing_comments
square = lambda v: v * v  # noqa: E731


def _functions(modules):
    seen = set()
    for module in modules:
        for value in list(vars(module).values()):
            members = vars(value).values() if isinstance(value, type) else [value]
            for f in members:
                f = getattr(f, "__func__", f)
                if isinstance(f, types.FunctionType) and id(f) not in seen:
                    seen.add(id(f))
                    yield f


def _modules(*names):
    out = []
    for name in names:
        package = importlib.import_module(name)
        out.append(package)
        for info in pkgutil.walk_packages(package.__path__, name + "."):
            try:
                out.append(importlib.import_module(info.name))
            except Exception:
                pass
    return out


def _check(fn, trees=True):
    try:
        want = inspect.getsourcelines(fn)
    except OSError:              # (made by exec, generated code): source_lines has none either
        with pytest.raises(OSError):
            source_lines(fn)
        return None
    lines, first, module = source_lines(fn)
    assert (lines, first) == want, fn.__qualname__
    if module is not None and trees:     # parsed already: as the lines inspect gives parse
        ref = ast.parse(textwrap.dedent("".join(want[0])))
        assert ast.dump(module, include_attributes=True) == ast.dump(ref, include_attributes=True)
    return module is not None


AWKWARD = [trailing_comments, one_liner, with_decorator, with_long_decorator, long_signature, string_at_margin,
           brackets_at_margin, asynchronous, Holder.method, Holder.static, Holder.last, tabbed, square]


@pytest.mark.parametrize("fn", AWKWARD, ids=lambda f: f.__qualname__)
def test_source_lines_are_inspects(fn):
    _check(fn)


def test_source_lines_fast_where_the_lines_show_the_end():
    fast = {f.__name__ for f in AWKWARD if _check(f)}
    assert {"trailing_comments", "one_liner", "with_decorator", "long_signature", "method", "static",
            "last"} <= fast
    assert not fast & {"string_at_margin", "brackets_at_margin", "tabbed", "<lambda>", "with_long_decorator"}


def test_source_lines_on_every_function_of_the_project():
    functions = list(_functions(_modules("transpiler") + [sys.modules[__name__]]))
    assert len(functions) > 500
    found = [_check(f, trees=False) for f in functions]
    assert found.count(True) > 0.9 * len(functions)


def test_parse_function_numbers_lines_as_in_the_file():
    parsed = parse_function(Holder.last)
    first = Holder.last.__code__.co_firstlineno
    inner = parsed.node.body[0]
    assert (parsed.node.lineno, inner.lineno, inner.body[0].lineno) == (first, first + 1, first + 2)
    assert inner.col_offset == 8 and inner.body[0].col_offset == 12   # columns of the file, not dedented


# --- traversal.py against the standard library ----------------------------------------------
def _tree():
    return ast.parse(inspect.getsource(sys.modules[__name__]))


def test_statements_in_ast_walk_order():
    tree = _tree()
    assert statements(tree.body) == [n for n in ast.walk(tree) if isinstance(n, ast.stmt)]


def test_calls_in_ast_walk_order():
    tree = _tree()
    assert calls(tree) == [n for n in ast.walk(tree) if isinstance(n, ast.Call)]


def test_nodes_in_ast_walk_order_without_contexts_and_operators():
    tree = ast.parse(inspect.getsource(sys.modules[__name__]) + "\nfor i in x:\n    pass\n    break\n")
    skip = (ast.expr_context, ast.operator, ast.boolop, ast.unaryop, ast.cmpop)
    assert nodes(tree) == [n for n in ast.walk(tree) if not isinstance(n, skip)]


class _Rewrites:
    """Every kind of answer a visitor gives: a new node, None (deleted), a list (spliced), the
    node itself after visiting its children, and the node without visiting them."""

    def visit_Name(self, node):
        return ast.copy_location(ast.Name(node.id.upper(), node.ctx), node)

    def visit_BinOp(self, node):
        self.generic_visit(node)
        return ast.copy_location(ast.Call(ast.Name("op", ast.Load()), [node.left, node.right], []), node)

    def visit_Pass(self, node):
        return None

    def visit_Expr(self, node):
        self.generic_visit(node)
        return [node, ast.Pass()]

    def visit_Lambda(self, node):
        return node

    def visit_Constant(self, node):
        return ast.Constant(repr(node.value)) if isinstance(node.value, int) else node


class _Slow(_Rewrites, ast.NodeTransformer):
    pass


class _Fast(_Rewrites, Transformer):
    pass


def test_transformer_rewrites_as_node_transformer():
    tree = _tree()
    slow, fast = _Slow().visit(copy.deepcopy(tree)), _Fast().visit(copy.deepcopy(tree))
    assert ast.dump(fast, include_attributes=True) == ast.dump(slow, include_attributes=True)


# --- the front end's work grows linearly --------------------------------------------------
def _straight_line(n, folder):
    """A function of ``n`` statements (the shapes of benchmarks/straight_line.py), in a file."""
    shapes = ("math.sin({a}) * {b}", "{a} * 0.9 + {b} * 0.1", "math.tanh({a} + {b})", "{a} - 0.5 * {b}",
              "math.cos({a}) + 0.1 * {b}")
    body = [f"    v{k} = {shapes[k % 5].format(a=f'v{k - 1}', b=f'v{k - 2}')}\n" for k in range(2, n + 2)]
    path = folder / f"line{n}.py"
    path.write_text(f"import math\n\n\ndef line(x, y):\n    v0 = x\n    v1 = y\n{''.join(body)}    return v{n + 1}\n")
    spec = importlib.util.spec_from_file_location(f"adjoin_test_line{n}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.line


def _front_end_calls(fn):
    """Python calls made by parsing and normalizing ``fn``."""
    count = [0]

    def profile(frame, event, arg):
        if event in ("call", "c_call"):
            count[0] += 1

    normalize(Context(parse_function(fn)))          # (imports and caches of a first run aside)
    sys.setprofile(profile)
    try:
        normalize(Context(parse_function(fn)))
    finally:
        sys.setprofile(None)
    return count[0]


def test_front_end_work_is_linear_in_the_function(tmp_path):
    small, large = _front_end_calls(_straight_line(50, tmp_path)), _front_end_calls(_straight_line(400, tmp_path))
    assert large <= 8 * 1.05 * small, (small, large)     # no walk of the whole function per statement
