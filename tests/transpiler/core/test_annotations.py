"""The IR's annotations and Context fields are declared in one place (transpiler/core/annotations.py)
and reached only through it."""

import ast
import os
import sys

import pytest

from tests.transpiler import corpus
from transpiler.api import transform
from transpiler.core import annotations as anno
from transpiler.core.context import Context
from transpiler.core.errors import TranspileError, Unresolved
from transpiler.frontend.source.parsing import parse_function

PACKAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))), "transpiler")
API = {"get", "put", "has", "drop", "attribute"}


def test_an_undeclared_key_is_an_error():
    node = ast.Name("x", ast.Load())
    for use in (lambda: anno.put(node, "primm", 1), lambda: anno.get(node, "primm"),
                lambda: anno.has(node, "primm"), lambda: anno.drop(node, "primm")):
        with pytest.raises(KeyError):
            use()
    assert not hasattr(node, "_primm")


def test_put_get_has_drop():
    node = ast.Name("x", ast.Load())
    assert anno.get(node, "prim") is None and anno.get(node, "static", False) is False
    assert not anno.has(node, "prim")
    anno.put(node, "prim", len)
    assert anno.get(node, "prim") is len and anno.has(node, "prim") and node._prim is len
    anno.drop(node, "prim")
    assert not anno.has(node, "prim")
    anno.drop(node, "prim")             # nothing to drop: no error


def test_every_declaration_says_what_it_means_who_sets_and_who_reads():
    for table in (anno.NODE, anno.CONTEXT):
        for key, declared in table.items():
            assert key.isidentifier() and not key.startswith("_"), key
            assert all(part.strip() for part in declared), key


def _sources():
    for folder, dirs, files in os.walk(PACKAGE):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for f in files:
            if f.endswith(".py"):
                path = os.path.join(folder, f)
                yield os.path.relpath(path, os.path.dirname(PACKAGE)), open(path, encoding="utf-8").read()


def _around_the_api(tree):
    """Lines that reach an annotation's attribute directly, or name an undeclared key."""
    attributes = {"_" + key for key in anno.NODE}
    joined = {id(side) for node in ast.walk(tree) if isinstance(node, ast.BinOp)     # (a name made
              for side in (node.left, node.right)}                                 # as `x + "_tape"`)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in attributes:
            out.append((node.lineno, f".{node.attr}"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in ("getattr", "setattr", "hasattr", "delattr") and len(node.args) > 1:
            key = node.args[1]
            if isinstance(key, ast.Constant) and key.value in attributes:
                out.append((node.lineno, f"{node.func.id}(..., {key.value!r})"))
            elif isinstance(key, ast.BinOp) and isinstance(key.left, ast.Constant) and len(str(key.left.value)) > 1 \
                    and any(a.startswith(str(key.left.value)) for a in attributes):   # ("_" + a class name: a visitor)
                out.append((node.lineno, f"{node.func.id}(..., {key.left.value!r} + ...)"))
        elif isinstance(node, ast.Constant) and node.value in attributes and id(node) not in joined:
            out.append((node.lineno, f"the attribute name {node.value!r}"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in API \
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "anno" and len(node.args) > 1:
            key = node.args[1]
            if isinstance(key, ast.Constant) and key.value not in anno.NODE:
                out.append((node.lineno, f"anno.{node.func.attr}(..., {key.value!r}): not declared"))
    return out


def test_no_module_reaches_an_annotation_around_the_api():
    found = [f"{path}:{line}: {what}" for path, text in _sources() if not path.endswith("annotations.py")
             for line, what in _around_the_api(ast.parse(text))]
    assert found == []


def test_the_scan_finds_a_planted_direct_use():
    planted = ast.parse("def f(call, key):\n    call._prim = len\n    if getattr(call, '_static', False):\n"
                        "        setattr(call, '_stack_' + key, 1)\n    return anno.get(call, 'primm')\n"
                        "for name in ('_carried', '_src'):\n    pass\n")
    assert sorted(line for line, _ in _around_the_api(planted)) == [2, 3, 3, 4, 5, 6, 6]


def test_every_attribute_a_transformation_leaves_on_a_node_is_declared():
    """Transform every corpus function (reverse, forward, with checkpointing) while watching every
    attribute adjoin's code sets on an AST node beyond its fields (astor marks nodes as it prints
    them: its own business)."""
    declared = {"_" + key for key in anno.NODE}
    seen = {}
    fields = {}
    original = ast.AST.__setattr__

    def watched(node, name, value):
        original(node, name, value)
        cls = node.__class__
        known = fields.get(cls)
        if known is None:
            known = fields[cls] = set(cls._fields) | set(getattr(cls, "_attributes", ()))
        if name not in known and name not in declared \
                and sys._getframe(1).f_code.co_filename.startswith(PACKAGE + os.sep):
            seen.setdefault(name, f"{cls.__name__} at {sys._getframe(1).f_code.co_filename}")

    ast.AST.__setattr__ = watched
    try:
        transformed = 0
        for _, fn, args, wrt in corpus.cases():
            for options in ({}, {"mode": "forward"}, {"memory_budget": 1}):
                try:
                    transform(fn, wrt=wrt, **options)
                    transformed += 1
                except (TranspileError, Unresolved, ValueError, TypeError):
                    pass
    finally:
        ast.AST.__setattr__ = original
    assert transformed > 300
    assert seen == {}


def test_context_fields_are_declared():
    def f(x):
        return x

    ctx = Context(parse_function(f))
    assert set(type(ctx).__slots__) == set(anno.CONTEXT)
    for field in anno.CONTEXT:
        getattr(ctx, field)             # every field has a value from the start
    with pytest.raises(AttributeError):
        ctx.arays = None
